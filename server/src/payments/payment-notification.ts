import type { NewNotification } from '../notifications/notifications.service'
import { toDevanagariDigits } from '../lib/digits'
import { paisaToRupees } from './money'
import type { PaymentWithPlan } from './payments.repository'

export function paymentCompletedNotification(
  payment: Pick<PaymentWithPlan, 'id' | 'user_id' | 'amount_paisa' | 'days' | 'name_en' | 'name_ne'>,
): NewNotification {
  const rupees = paisaToRupees(payment.amount_paisa)
  const plan = { en: payment.name_en, ne: payment.name_ne || payment.name_en }
  return {
    userId: payment.user_id,
    kind: 'payment_completed',
    text: {
      en: `Payment received: Rs ${rupees} for ${plan.en}. Your paid access is extended by ${payment.days} ${payment.days === 1 ? 'day' : 'days'}.`,
      ne: toDevanagariDigits(
        `भुक्तानी प्राप्त भयो: ${plan.ne} का लागि रु ${rupees}। तपाईंको सशुल्क पहुँच ${payment.days} दिन थपिएको छ।`,
      ),
    },
    link: `/payments/${payment.id}`,
  }
}
