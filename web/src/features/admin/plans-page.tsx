import { useQuery } from '@tanstack/react-query'
import { useState, type FormEvent } from 'react'
import { useTranslation } from 'react-i18next'
import './admin.i18n'
import { Alert } from '../../components/ui/alert'
import { QueryStates, SubmitButton } from './ui'
import { useBilingual } from '../../i18n/use-bilingual'
import { formatNumber } from '../../lib/format'
import { formatRupees, parseRupees } from '../../lib/money'
import { adminPlanQueries, useSavePlan, type Plan } from './admin.api'
import { AdminNav } from './admin-nav'
import { fieldErrorsOf } from '../../components/ui/form/server-errors'
import { TextField } from '../../components/ui/form/text-field'
import './admin.css'

/** /admin/plans: every plan, a form for a new one, and an edit form per plan (plans are never deleted). */
export function Component() {
  const { t, i18n } = useTranslation('admin')
  const pick = useBilingual()
  const plans = useQuery(adminPlanQueries.plans())
  const [editing, setEditing] = useState<number | null>(null)
  const [notice, setNotice] = useState<'created' | 'saved' | null>(null)

  return (
    <div className="admin">
      <AdminNav />
      <h1>{t('plans.title')}</h1>
      {notice && <Alert kind="success">{t(`plans.${notice}`)}</Alert>}
      <QueryStates query={plans} isEmpty={(data) => data.length === 0} text={(key) => t(`plans.${key}`)}>
        {(data) => (
          <ul className="admin-list">
            {data.map((plan) => (
              <li key={plan.id} className="card admin-list__item">
                {editing === plan.id ? (
                  <PlanForm
                    plan={plan}
                    onDone={() => {
                      setEditing(null)
                      setNotice('saved')
                    }}
                    onCancel={() => setEditing(null)}
                  />
                ) : (
                  <>
                    <div className="admin-list__main">
                      <h2 className="admin-list__title">{pick(plan.name)}</h2>
                      <p className="admin-list__meta">
                        <span>
                          {t('plans.summary', {
                            price: formatRupees(plan.price_paisa, i18n.language),
                            days: formatNumber(plan.days, i18n.language),
                          })}
                        </span>
                        <span className={`badge ${plan.active ? 'badge--easy' : 'badge--unanswered'}`}>
                          {plan.active ? t('plans.status_active') : t('plans.status_inactive')}
                        </span>
                      </p>
                    </div>
                    <button
                      type="button"
                      className="btn"
                      aria-label={t('plans.edit_named', { name: pick(plan.name) })}
                      onClick={() => {
                        setNotice(null)
                        setEditing(plan.id)
                      }}
                    >
                      {t('common.edit')}
                    </button>
                  </>
                )}
              </li>
            ))}
          </ul>
        )}
      </QueryStates>
      <section className="card">
        <h2>{t('plans.new_title')}</h2>
        <PlanForm key={notice === 'created' ? 'again' : 'new'} onDone={() => setNotice('created')} />
      </section>
    </div>
  )
}

function PlanForm({ plan, onDone, onCancel }: { plan?: Plan; onDone: () => void; onCancel?: () => void }) {
  const { t } = useTranslation('admin')
  const save = useSavePlan()
  const [nameEn, setNameEn] = useState(plan?.name.en ?? '')
  const [nameNe, setNameNe] = useState(plan?.name.ne ?? '')
  const [price, setPrice] = useState(plan ? (plan.price_paisa / 100).toFixed(2).replace(/\.00$/, '') : '')
  const [days, setDays] = useState(plan ? String(plan.days) : '30')
  const [active, setActive] = useState(plan?.active ?? true)
  const [priceError, setPriceError] = useState(false)
  const errors = fieldErrorsOf(save.error)

  const submit = (event: FormEvent) => {
    event.preventDefault()
    const pricePaisa = parseRupees(price)
    setPriceError(pricePaisa === null)
    if (pricePaisa === null) return
    save.mutate(
      {
        id: plan?.id ?? null,
        plan: { name: { en: nameEn, ne: nameNe }, price_paisa: pricePaisa, days: Number(days), active },
      },
      { onSuccess: onDone },
    )
  }

  return (
    <form className="stack" onSubmit={submit} noValidate>
      {save.isError && <Alert kind="error">{t('plans.save_failed')}</Alert>}
      <TextField label={t('plans.name_en')} value={nameEn} onChange={setNameEn} lang="en" errors={errors['name.en']} />
      <TextField label={t('plans.name_ne')} value={nameNe} onChange={setNameNe} lang="ne" errors={errors['name.ne']} />
      <TextField
        label={t('plans.price')}
        value={price}
        onChange={setPrice}
        hint={t('plans.price_hint')}
        errors={priceError ? [t('plans.bad_price')] : errors.price_paisa}
      />
      <TextField
        label={t('plans.days')}
        value={days}
        onChange={setDays}
        type="number"
        hint={t('plans.days_hint')}
        errors={errors.days}
      />
      <label className="checkbox">
        <input type="checkbox" checked={active} onChange={(event) => setActive(event.target.checked)} />
        {t('plans.active')}
      </label>
      <div className="actions">
        <SubmitButton pending={save.isPending}>{plan ? t('plans.save') : t('plans.create')}</SubmitButton>
        {onCancel && (
          <button type="button" className="btn" onClick={onCancel}>
            {t('plans.cancel')}
          </button>
        )}
      </div>
    </form>
  )
}
