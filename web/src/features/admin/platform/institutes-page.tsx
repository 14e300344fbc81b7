import { useQuery } from '@tanstack/react-query'
import { useState } from 'react'
import { useTranslation } from 'react-i18next'
import { Alert } from '../../../components/ui/alert'
import { Button } from '../../../components/ui/button'
import { Dialog } from '../../../components/ui/dialog'
import { useLanguage } from '../../../i18n/use-bilingual'
import { instituteName } from '../../../lib/institute'
import { formatNumber } from '../../../lib/format'
import { CreateInstitute } from './institute-create'
import { EditInstitute } from './institute-edit'
import { actAsUrl, platformQueries, useActAs, useUpdateInstitute, type PlatformInstitute } from './platform.api'
import '../../../i18n/platform.i18n'
import '../admin.i18n'
import './platform.css'

// WEB.md "Institutes": the platform admin's institutes (name, hosts, status, learners, attempts this month,
// storage; create, suspend), and "Act as admin of this institute" behind a confirmation that says it is recorded.

/** Bytes as a person reads them: 1.2 MB, 340 KB. */
export function formatBytes(bytes: number, language: string): string {
  const units = ['B', 'KB', 'MB', 'GB', 'TB']
  let value = bytes
  let unit = 0
  while (value >= 1000 && unit < units.length - 1) {
    value /= 1000
    unit += 1
  }
  return `${formatNumber(value, language, { maximumFractionDigits: unit === 0 ? 0 : 1 })} ${units[unit]}`
}

type Pending = { kind: 'suspend' | 'act'; institute: PlatformInstitute } | null

export function Component() {
  const { t } = useTranslation('platform')
  const language = useLanguage()
  const institutes = useQuery(platformQueries.institutes(1))
  const update = useUpdateInstitute()
  const actAs = useActAs()
  const [pending, setPending] = useState<Pending>(null)
  const [acting, setActing] = useState<{ name: string; url: string } | null>(null)
  const [editing, setEditing] = useState<{ institute: PlatformInstitute; run: number } | null>(null)
  const [edited, setEdited] = useState<string | null>(null)
  const n = (value: number) => formatNumber(value, language)
  const nameOf = (institute: PlatformInstitute) => instituteName(institute, language)

  const setStatus = (institute: PlatformInstitute, status: PlatformInstitute['status']) =>
    update.mutate({ id: institute.id, update: { status } }, { onSettled: () => setPending(null) })

  return (
    <>
      <h1>{t('platform.institutes.title')}</h1>
      <div aria-live="polite">
        {update.isError && <Alert kind="error">{t('platform.institutes.update_failed')}</Alert>}
        {actAs.isError && <Alert kind="error">{t('platform.institutes.act_failed')}</Alert>}
        {edited && <Alert kind="success">{t('platform.institutes.edited', { name: edited })}</Alert>}
        {acting && (
          <Alert kind="success">
            {t('platform.institutes.act_ready', { name: acting.name })}{' '}
            <a href={acting.url}>{t('platform.institutes.act_open', { name: acting.name })}</a>
          </Alert>
        )}
      </div>
      {institutes.isPending && <p role="status">{t('platform.institutes.loading')}</p>}
      {institutes.isError && <Alert kind="error">{t('platform.institutes.load_failed')}</Alert>}
      {institutes.data &&
        (institutes.data.results.length === 0 ? (
          <p>{t('platform.institutes.empty')}</p>
        ) : (
          <div className="admin-table-wrap">
            <table className="admin-table stack-table platform-institutes">
              <thead>
                <tr>
                  <th scope="col">{t('platform.institutes.name')}</th>
                  <th scope="col">{t('platform.institutes.hosts')}</th>
                  <th scope="col">{t('platform.institutes.status')}</th>
                  <th scope="col">{t('platform.institutes.learners')}</th>
                  <th scope="col">{t('platform.institutes.attempts')}</th>
                  <th scope="col">{t('platform.institutes.storage')}</th>
                  <th scope="col">{t('platform.institutes.actions')}</th>
                </tr>
              </thead>
              <tbody>
                {institutes.data.results.map((institute) => {
                  const name = nameOf(institute)
                  return (
                    <tr key={institute.id}>
                      <th scope="row">
                        <span lang={institute.name.ne && language === 'ne' ? 'ne' : 'en'}>{name}</span>
                        <br />
                        <span className="muted">{institute.slug}</span>
                      </th>
                      <td data-label={t('platform.institutes.hosts')}>
                        {institute.hosts.length ? institute.hosts.join(', ') : '—'}
                      </td>
                      <td data-label={t('platform.institutes.status')}>
                        {institute.status === 'active'
                          ? t('platform.institutes.active')
                          : t('platform.institutes.suspended')}
                      </td>
                      <td className="admin-num" data-label={t('platform.institutes.learners')}>
                        {n(institute.usage.learners)}
                      </td>
                      <td className="admin-num" data-label={t('platform.institutes.attempts')}>
                        {n(institute.usage.attempts_this_month)}
                      </td>
                      <td className="admin-num" data-label={t('platform.institutes.storage')}>
                        {formatBytes(institute.usage.file_bytes, language)}
                      </td>
                      <td data-label={t('platform.institutes.actions')}>
                        <span className="actions">
                          <Button
                            small
                            aria-label={t('platform.institutes.edit_named', { name })}
                            onClick={() => {
                              setEdited(null)
                              setEditing((current) => ({ institute, run: (current?.run ?? 0) + 1 }))
                            }}
                          >
                            {t('platform.institutes.edit')}
                          </Button>
                          {institute.status === 'active' ? (
                            <Button
                              small
                              variant="danger"
                              aria-label={t('platform.institutes.suspend_named', { name })}
                              onClick={() => setPending({ kind: 'suspend', institute })}
                            >
                              {t('platform.institutes.suspend')}
                            </Button>
                          ) : (
                            <Button
                              small
                              disabled={update.isPending}
                              aria-label={t('platform.institutes.resume_named', { name })}
                              onClick={() => setStatus(institute, 'active')}
                            >
                              {t('platform.institutes.resume')}
                            </Button>
                          )}
                          <Button
                            small
                            aria-label={t('platform.institutes.act_named', { name })}
                            onClick={() => setPending({ kind: 'act', institute })}
                          >
                            {t('platform.institutes.act')}
                          </Button>
                        </span>
                      </td>
                    </tr>
                  )
                })}
              </tbody>
            </table>
          </div>
        ))}
      {editing && institutes.data && (
        <EditInstitute
          key={editing.run}
          institute={editing.institute}
          institutes={institutes.data.results}
          onDone={(saved) => {
            setEditing(null)
            setEdited(saved)
          }}
        />
      )}
      <CreateInstitute />
      {pending && (
        <Dialog
          open
          title={
            pending.kind === 'act'
              ? t('platform.institutes.act_title', { name: nameOf(pending.institute) })
              : t('platform.institutes.suspend_title', { name: nameOf(pending.institute) })
          }
          onClose={() => setPending(null)}
          actions={
            <>
              {/* eslint-disable-next-line jsx-a11y/no-autofocus -- a consequential dialog opens on its safe choice (WAI-ARIA APG) */}
              <Button onClick={() => setPending(null)} autoFocus>
                {t('common.cancel', { ns: 'admin' })}
              </Button>
              {pending.kind === 'act' ? (
                <Button
                  variant="primary"
                  disabled={actAs.isPending}
                  onClick={() => {
                    const institute = pending.institute
                    setActing(null)
                    actAs.mutate(institute.id, {
                      onSuccess: ({ access }) =>
                        setActing({ name: nameOf(institute), url: actAsUrl(institute, access, window.location) }),
                      onSettled: () => setPending(null),
                    })
                  }}
                >
                  {actAs.isPending ? t('platform.institutes.acting') : t('platform.institutes.act_confirm')}
                </Button>
              ) : (
                <Button
                  variant="danger"
                  disabled={update.isPending}
                  onClick={() => setStatus(pending.institute, 'suspended')}
                >
                  {t('platform.institutes.suspend')}
                </Button>
              )}
            </>
          }
        >
          <p>
            {pending.kind === 'act'
              ? t('platform.institutes.act_message', { name: nameOf(pending.institute) })
              : t('platform.institutes.suspend_message')}
          </p>
        </Dialog>
      )}
    </>
  )
}
