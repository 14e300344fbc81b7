import type { FastifyReply } from 'fastify'
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod'
import { z } from 'zod'
import { paisaToRupees } from './money'
import type { PaymentService } from './payments.service'

const Ref = z.string().regex(/^[0-9a-f]{32}$/)

const page = (body: string) => `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>Fake payment gateway</title>
<style>body{font-family:system-ui,sans-serif;max-width:26rem;margin:2rem auto;padding:0 1rem;color:#1f2933}
.box{border:2px dashed #b45309;border-radius:8px;padding:1rem}button{font-size:1.1rem;padding:.6rem 1.2rem;margin:.3rem .5rem 0 0;border-radius:6px;border:1px solid #334155;cursor:pointer}
.pay{background:#15803d;color:#fff;border-color:#15803d}</style></head><body><div class="box">${body}</div></body></html>`

// Served only when PAYMENT_PROVIDERS has fake (refused in production); its return verifies through the real code paths.
export const fakeCheckoutRoutes: FastifyPluginAsyncZod<{
  payments: PaymentService
  backToApp: (reply: FastifyReply, id: number | undefined) => FastifyReply
}> = async (app, { payments, backToApp }) => {
  app.addContentTypeParser('application/x-www-form-urlencoded', { parseAs: 'string' }, (_request, body, done) =>
    done(null, Object.fromEntries(new URLSearchParams(body as string))),
  )

  app.get(
    '/fake/checkout/',
    { schema: { hide: true, querystring: z.object({ ref: Ref }) } },
    async (request, reply) => {
      const transaction = await payments.openFakeTransaction(request.query.ref)
      reply.header('cache-control', 'no-store').type('text/html; charset=utf-8')
      if (!transaction)
        return page('<h1>Fake gateway</h1><p>This payment is no longer open. / यो भुक्तानी अब खुला छैन।</p>')
      return page(`<h1>Fake gateway</h1>
<p>Development only: no money moves. / विकासका लागि मात्र: कुनै पैसा जाँदैन।</p>
<p>Amount / रकम: <strong>Rs ${paisaToRupees(transaction.amount_paisa)}</strong></p>
<form method="post" action="/api/payments/fake/checkout/">
<input type="hidden" name="ref" value="${request.query.ref}">
<button class="pay" name="decision" value="pay">Pay / तिर्नुहोस्</button>
<button name="decision" value="cancel">Cancel / रद्द गर्नुहोस्</button>
</form>`)
    },
  )

  app.post(
    '/fake/checkout/',
    { schema: { hide: true, body: z.object({ ref: Ref, decision: z.enum(['pay', 'cancel']) }) } },
    async (request, reply) => {
      const { ref, decision } = request.body
      await payments.decideFakeCheckout(ref, decision)
      return reply.redirect(`/api/payments/fake/return/?ref=${ref}`, 303)
    },
  )

  app.get('/fake/return/', { schema: { hide: true, querystring: z.object({ ref: Ref }) } }, async (request, reply) =>
    backToApp(reply, await payments.fakeReturned(request.query.ref, request.institute.id)),
  )
}
