import { useQuery } from '@tanstack/react-query'
import { useState } from 'react'
import { useForm } from 'react-hook-form'
import { useTranslation } from 'react-i18next'
import '../admin.i18n'
import { Alert } from '../../../components/ui/alert'
import { QueryStates, SubmitButton } from '../ui'
import { useBilingual } from '../../../i18n/use-bilingual'
import { InlineText } from '../../../components/ui/rich-text'
import { formatNumber } from '../../../lib/format'
import { formatRupees } from '../../../lib/money'
import { adminPlanQueries, useSavePlan, type Plan } from './billing.api'
import { AdminNav } from '../admin-nav'
import { setServerErrors, type ServerFields } from '../../../components/ui/form/server-errors'
import { CheckboxField, TextField } from '../../../components/ui/form/fields'
import {
  type PlanOutput,
  planResolver,
  type PlanValues,
  useAdminMessages,
  AdminForm,
  BilingualFields,
  pairFields,
} from '../forms'
import '../admin.css'
import { Button } from '../../../components/ui/button'

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
                      <h2 className="admin-list__title">
                        <InlineText text={plan.name} />
                      </h2>
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
                    <Button
                      aria-label={t('plans.edit_named', { name: pick(plan.name) })}
                      onClick={() => {
                        setNotice(null)
                        setEditing(plan.id)
                      }}
                    >
                      {t('common.edit')}
                    </Button>
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

// The server's field paths of a plan and the fields that show them.
const PLAN_FIELDS: ServerFields<PlanValues> = {
  ...pairFields('name'),
  price_paisa: 'price',
  days: 'days',
  active: 'active',
}

function PlanForm({ plan, onDone, onCancel }: { plan?: Plan; onDone: () => void; onCancel?: () => void }) {
  const { t } = useTranslation('admin')
  const save = useSavePlan()
  const messages = useAdminMessages()
  const form = useForm<PlanValues, unknown, PlanOutput>({
    resolver: planResolver,
    defaultValues: {
      name: { en: plan?.name.en ?? '', ne: plan?.name.ne ?? '' },
      price: plan ? (plan.price_paisa / 100).toFixed(2).replace(/\.00$/, '') : '',
      days: plan ? String(plan.days) : '30',
      active: plan?.active ?? true,
    },
  })
  const [refusal, setRefusal] = useState<object | null>(null)

  const submit = ({ price, ...values }: PlanOutput) => {
    setRefusal(null)
    save.mutate(
      {
        id: plan?.id ?? null,
        plan: { ...values, price_paisa: price },
      },
      {
        onSuccess: onDone,
        onError: (error) => {
          setServerErrors(form.setError, error, PLAN_FIELDS)
          setRefusal({})
        },
      },
    )
  }

  return (
    <AdminForm
      form={form}
      messages={messages}
      refusal={refusal}
      className="stack"
      onSubmit={form.handleSubmit(submit, () => setRefusal({}))}
    >
      {save.isError && <Alert kind="error">{t('plans.save_failed')}</Alert>}
      <BilingualFields labels={{ en: t('plans.name_en'), ne: t('plans.name_ne') }} name="name" />
      <TextField<PlanValues> name="price" label={t('plans.price')} hint={t('plans.price_hint')} />
      <TextField<PlanValues> name="days" label={t('plans.days')} type="number" hint={t('plans.days_hint')} />
      <CheckboxField<PlanValues> name="active" label={t('plans.active')} />
      <div className="actions">
        <SubmitButton pending={save.isPending}>{plan ? t('plans.save') : t('plans.create')}</SubmitButton>
        {onCancel && <Button onClick={onCancel}>{t('plans.cancel')}</Button>}
      </div>
    </AdminForm>
  )
}
