import { useQuery } from '@tanstack/react-query'
import { useState } from 'react'
import { useTranslation } from 'react-i18next'
import { Button } from '../../components/ui/button'
import './payments.i18n'
import { ApiError } from '../../api/api-error'
import { activePlansQuery, type Plan } from '../../api/plans'
import { Alert } from '../../components/ui/alert'
import { Loading } from '../../components/ui/loading'
import { useBilingualLang } from '../../i18n/use-bilingual'
import { formatNumber } from '../../lib/format'
import { formatRupees } from '../../lib/money'
import { handOff, paymentQueries, useStartPayment, type PaymentProvider } from './payments.api'
import './payments.css'

/** /plans: each active plan with its price and length, and a button per configured provider. */
export function Component() {
  const { t, i18n } = useTranslation('payments')
  const pickLang = useBilingualLang()
  const plans = useQuery(activePlansQuery())
  const providers = useQuery(paymentQueries.providers())
  const start = useStartPayment()
  const [leaving, setLeaving] = useState<PaymentProvider | null>(null)
  const [problem, setProblem] = useState<{ provider: PaymentProvider; unavailable: boolean } | null>(null)

  const pay = (plan: Plan, provider: PaymentProvider) => {
    setProblem(null)
    start.mutate(
      { plan_id: plan.id, provider },
      {
        onSuccess: (started) => {
          setLeaving(provider)
          handOff(started.redirect)
        },
        onError: (error) => setProblem({ provider, unavailable: error instanceof ApiError && error.status === 503 }),
      },
    )
  }

  return (
    <div className="plans">
      <div className="page-header">
        <h1>{t('plans.title')}</h1>
      </div>
      <p className="plans__intro">{t('plans.intro')}</p>
      {problem && (
        <Alert kind="error">
          {problem.unavailable
            ? t('plans.provider_unavailable', { provider: t(`providers.${problem.provider}`) })
            : t('plans.start_failed')}
        </Alert>
      )}
      {leaving && <Loading label={t('plans.leaving', { provider: t(`providers.${leaving}`) })} />}
      {plans.isPending || providers.isPending ? (
        <Loading label={t('plans.loading')} />
      ) : plans.isError || providers.isError ? (
        <Alert kind="error">{t('plans.load_failed')}</Alert>
      ) : plans.data.length === 0 ? (
        <p className="card">{t('plans.empty')}</p>
      ) : (
        <>
          {providers.data.length === 0 && <Alert kind="info">{t('plans.no_providers')}</Alert>}
          <ul className="plans__list">
            {plans.data.map((plan) => {
              const name = pickLang(plan.name)
              const nameId = `plan-${plan.id}-name`
              return (
                <li key={plan.id} className="card plan-card">
                  <h2 className="plan-card__name" id={nameId} lang={name.lang}>
                    {name.text}
                  </h2>
                  <p className="plan-card__price">
                    <strong>{formatRupees(plan.price_paisa, i18n.language)}</strong>
                    <span className="muted">
                      {' '}
                      · {t('plans.days', { days: formatNumber(plan.days, i18n.language) })}
                    </span>
                  </p>
                  <div className="plan-card__actions">
                    {providers.data.map((provider) => (
                      <Button
                        key={provider}
                        className={`btn--provider btn--${provider}`}
                        disabled={start.isPending || leaving !== null}
                        aria-describedby={nameId}
                        onClick={() => pay(plan, provider)}
                      >
                        {t('plans.pay_with', { provider: t(`providers.${provider}`) })}
                      </Button>
                    ))}
                  </div>
                </li>
              )
            })}
          </ul>
        </>
      )}
    </div>
  )
}
