import { membersLimits } from '@quiz/contracts'
import { useQuery } from '@tanstack/react-query'
import { useId, useState, type FormEvent } from 'react'
import { useTranslation } from 'react-i18next'
import '../institutions.i18n'
import { ApiError } from '../../../api/api-error'
import { Alert } from '../../../components/ui/alert'
import { Button } from '../../../components/ui/button'
import { digitsFor, fromDevanagariDigits } from '../../../lib/digits'
import { formatDateTime, formatNumber } from '../../../lib/format'
import { AdminNav } from '../admin-nav'
import { ConfirmDeleteDialog } from '../confirm-dialog'
import { PagedTable, SubmitButton } from '../ui'
import {
  memberQueries,
  MEMBERS_PAGE_SIZE,
  ROLES,
  useAddMembers,
  useEndMembership,
  useSetMemberRoles,
  type AddMembersResponse,
  type Member,
  type Role,
} from './members.api'
import { readPhoneList, type ListedPhone, type Malformed } from './phone-list'
import '../admin.css'

/** What the last change to a member was, said above the table. */
type Notice = { kind: 'roles_saved' | 'ended'; username: string } | null

/** /admin/members: the institute's learners, admins and markers; their roles, ending a membership, adding by phone. */
export function Component() {
  const { t, i18n } = useTranslation('institutions')
  const language = i18n.language
  const [draft, setDraft] = useState('')
  const [search, setSearch] = useState('')
  const [role, setRole] = useState<Role | ''>('')
  const [page, setPage] = useState(1)
  const [notice, setNotice] = useState<Notice>(null)
  const [ending, setEnding] = useState<Member | null>(null)
  const members = useQuery({ ...memberQueries.list(search, role, page), placeholderData: (previous) => previous })
  const end = useEndMembership()

  const submitSearch = (event: FormEvent) => {
    event.preventDefault()
    // A phone number typed on a Nepali keyboard (९८४…) is searched as the digits it is stored with.
    setSearch(fromDevanagariDigits(draft.trim()))
    setPage(1)
  }

  const confirmEnd = () => {
    if (!ending) return
    end.mutate(ending.id, {
      onSuccess: () => {
        setNotice({ kind: 'ended', username: ending.username })
        setEnding(null)
      },
      // The dialog goes, so that the refusal is read on the page rather than behind a dialog that still asks.
      onError: () => setEnding(null),
    })
  }

  return (
    <div className="admin">
      <AdminNav />
      <h1>{t('members.title')}</h1>
      <form className="admin-toolbar" role="search" onSubmit={submitSearch}>
        <div className="field admin-search">
          <label htmlFor="member-search">{t('members.search')}</label>
          <input id="member-search" type="search" value={draft} onChange={(event) => setDraft(event.target.value)} />
        </div>
        <div className="field admin-filter">
          <label htmlFor="member-role">{t('members.role_filter')}</label>
          <select
            id="member-role"
            value={role}
            onChange={(event) => {
              setRole(event.target.value as Role | '')
              setPage(1)
            }}
          >
            <option value="">{t('members.all_roles')}</option>
            {ROLES.map((value) => (
              <option key={value} value={value}>
                {t(`members.roles_plural.${value}`)}
              </option>
            ))}
          </select>
        </div>
        <Button type="submit">{t('members.search_button')}</Button>
      </form>
      {notice && (
        <Alert kind="success">
          {t(notice.kind === 'ended' ? 'members.ended' : 'members.roles_saved', { username: notice.username })}
        </Alert>
      )}

      <PagedTable
        label={t('members.title')}
        query={members}
        pageSize={MEMBERS_PAGE_SIZE}
        page={page}
        onPage={setPage}
        text={(key, values) => t(`members.${key}`, values)}
        className="members-table"
        columns={[
          { label: t('members.username') },
          { label: t('members.name') },
          { label: t('members.phone') },
          { label: t('members.joined') },
          { label: t('members.roles') },
          { label: <span className="visually-hidden">{t('members.end')}</span> },
        ]}
      >
        {(member) => (
          <tr key={member.id}>
            <td>{member.username}</td>
            <td>{member.full_name}</td>
            <td>{digitsFor(member.phone_number, language)}</td>
            <td>{formatDateTime(member.joined_at, language)}</td>
            <td>
              {/* Keyed by the saved roles: a refetch after a save starts the boxes again from what the server holds. */}
              <MemberRoles
                key={member.roles.join()}
                member={member}
                onSaved={() => setNotice({ kind: 'roles_saved', username: member.username })}
              />
            </td>
            <td>
              <Button
                small
                variant="danger"
                aria-label={`${t('members.end')}: ${member.username}`}
                onClick={() => {
                  setNotice(null)
                  end.reset()
                  setEnding(member)
                }}
              >
                {t('members.end')}
              </Button>
            </td>
          </tr>
        )}
      </PagedTable>

      <ConfirmDeleteDialog
        open={ending !== null}
        title={t('members.end_title')}
        message={t('members.end_message', { username: ending?.username ?? '' })}
        subject={ending ? [ending.username, ending.full_name].filter(Boolean).join(' · ') : undefined}
        pending={end.isPending}
        confirmLabel={t('members.end')}
        pendingLabel={t('members.ending')}
        onConfirm={confirmEnd}
        onCancel={() => setEnding(null)}
      />
      {end.isError && <Alert kind="error">{t('members.end_failed')}</Alert>}

      <AddByPhone />
    </div>
  )
}

/** A member's roles as three boxes, saved together; a member keeps at least one (ending is the other button). */
function MemberRoles({ member, onSaved }: { member: Member; onSaved: () => void }) {
  const { t } = useTranslation('institutions')
  const [roles, setRoles] = useState<readonly Role[]>(member.roles)
  const save = useSetMemberRoles()
  const changed = ROLES.some((value) => roles.includes(value) !== member.roles.includes(value))
  const none = roles.length === 0

  const toggle = (value: Role, on: boolean) =>
    setRoles((current) => ROLES.filter((item) => (item === value ? on : current.includes(item))))

  return (
    <fieldset className="members-roles">
      <legend className="visually-hidden">{t('members.roles_of', { username: member.username })}</legend>
      <div className="members-roles__boxes">
        {ROLES.map((value) => (
          <label key={value} className="checkbox">
            <input
              type="checkbox"
              checked={roles.includes(value)}
              disabled={save.isPending}
              onChange={(event) => toggle(value, event.target.checked)}
            />
            {t(`members.role.${value}`)}
          </label>
        ))}
      </div>
      <Button
        small
        disabled={!changed || none || save.isPending}
        aria-label={`${t('members.save_roles')}: ${member.username}`}
        onClick={() => save.mutate({ id: member.id, roles: [...roles] }, { onSuccess: onSaved })}
      >
        {save.isPending ? t('members.saving') : t('members.save_roles')}
      </Button>
      {none && <p className="field__error">{t('members.no_role')}</p>}
      {save.isError && <Alert kind="error">{t('members.roles_failed', { username: member.username })}</Alert>}
    </fieldset>
  )
}

/** What is wrong with the pasted list, found before sending or named by the server; nothing was added. */
type Problem =
  | { kind: 'malformed'; items: Malformed[] }
  | { kind: 'empty' }
  | { kind: 'too_many'; count: number }
  | { kind: 'failed' }
  | null

/** How many malformed lines are listed; the rest are counted, so a pasted spreadsheet column cannot flood the page. */
const MALFORMED_SHOWN = 20

/** "Add by phone numbers": up to 1,000 pasted, one role, then who was added, invited, and was already a member. */
function AddByPhone() {
  const { t, i18n } = useTranslation('institutions')
  const language = i18n.language
  const [text, setText] = useState('')
  const [role, setRole] = useState<Role>('learner')
  const [problem, setProblem] = useState<Problem>(null)
  const [result, setResult] = useState<AddMembersResponse | null>(null)
  const add = useAddMembers()
  const n = (value: number) => formatNumber(value, language, { useGrouping: false })
  const limit = formatNumber(membersLimits.phoneNumbers, language)

  // The server names a malformed number by its place in the list sent: point at the line it came from.
  const refused = (error: unknown, sent: ListedPhone[]): Problem => {
    if (!(error instanceof ApiError) || !error.errors) return { kind: 'failed' }
    const items = Object.keys(error.errors)
      .map((path) => /^phone_numbers\.(\d+)$/.exec(path)?.[1])
      .map((index) => (index === undefined ? undefined : sent[Number(index)]))
      .filter((item): item is ListedPhone => item !== undefined)
      .map(({ line, phone }) => ({ line, text: phone }))
    return items.length > 0 ? { kind: 'malformed', items } : { kind: 'failed' }
  }

  const submit = (event: FormEvent) => {
    event.preventDefault()
    setResult(null)
    const { phones, malformed } = readPhoneList(text)
    const found: Problem =
      malformed.length > 0
        ? { kind: 'malformed', items: malformed }
        : phones.length === 0
          ? { kind: 'empty' }
          : phones.length > membersLimits.phoneNumbers
            ? { kind: 'too_many', count: phones.length }
            : null
    setProblem(found)
    if (found) return
    add.mutate(
      { phone_numbers: phones.map(({ phone }) => phone), role },
      {
        onSuccess: (answer) => {
          setResult(answer)
          setText('')
        },
        onError: (error) => setProblem(refused(error, phones)),
      },
    )
  }

  const problemText = (current: NonNullable<Problem>) => {
    switch (current.kind) {
      case 'empty':
        return t('members.add_empty')
      case 'too_many':
        return t('members.add_too_many', { limit, count: formatNumber(current.count, language) })
      case 'failed':
        return t('members.add_failed')
      case 'malformed':
        return null
    }
  }

  return (
    <section className="card admin-section members-add" aria-labelledby="members-add-title">
      <h2 id="members-add-title">{t('members.add_title')}</h2>
      <form className="admin-form" onSubmit={submit} noValidate>
        <div className="field">
          <label htmlFor="members-phones">{t('members.phones')}</label>
          <textarea
            id="members-phones"
            rows={8}
            value={text}
            aria-describedby="members-phones-hint"
            aria-invalid={problem !== null && problem.kind !== 'failed'}
            onChange={(event) => setText(event.target.value)}
          />
          <span id="members-phones-hint" className="field__hint">
            {t('members.phones_hint', { limit })}
          </span>
        </div>
        <div className="field admin-filter">
          <label htmlFor="members-add-role">{t('members.add_role')}</label>
          <select id="members-add-role" value={role} onChange={(event) => setRole(event.target.value as Role)}>
            {ROLES.map((value) => (
              <option key={value} value={value}>
                {t(`members.role.${value}`)}
              </option>
            ))}
          </select>
        </div>
        <div className="actions">
          <SubmitButton pending={add.isPending} busy={t('members.adding')}>
            {t('members.add_button')}
          </SubmitButton>
        </div>
      </form>

      {problem && (
        <Alert kind="error">
          {problem.kind === 'malformed' ? (
            <>
              <p>{t('members.add_malformed')}</p>
              <ul className="members-malformed">
                {problem.items.slice(0, MALFORMED_SHOWN).map((item, index) => (
                  <li key={index}>{t('members.malformed_line', { line: n(item.line), text: item.text })}</li>
                ))}
              </ul>
              {problem.items.length > MALFORMED_SHOWN && (
                <p>{t('members.malformed_more', { count: n(problem.items.length - MALFORMED_SHOWN) })}</p>
              )}
            </>
          ) : (
            problemText(problem)
          )}
        </Alert>
      )}

      {/* The counts are announced; the lists, up to 1,000 numbers, are there to read, not to be read out. */}
      <p role="status" className="members-summary">
        {result &&
          t('members.add_summary', {
            added: n(result.added.length),
            invited: n(result.invited.length),
            already: n(result.already.length),
          })}
      </p>
      {result && (
        <>
          <PhoneGroup title={t('members.added')} phones={result.added} />
          <PhoneGroup title={t('members.invited')} hint={t('members.invited_hint')} phones={result.invited} />
          <PhoneGroup title={t('members.already')} phones={result.already} />
        </>
      )}
    </section>
  )
}

function PhoneGroup({ title, hint, phones }: { title: string; hint?: string; phones: readonly string[] }) {
  const { t, i18n } = useTranslation('institutions')
  const titleId = useId()
  const count = formatNumber(phones.length, i18n.language, { useGrouping: false })
  return (
    <section className="members-result" aria-labelledby={titleId}>
      <h3 id={titleId}>{`${title} (${count})`}</h3>
      {hint && <p className="muted admin-hint">{hint}</p>}
      {phones.length === 0 ? (
        <p className="muted">{t('members.none')}</p>
      ) : (
        <ul className="members-phones">
          {phones.map((phone) => (
            <li key={phone}>{digitsFor(phone, i18n.language)}</li>
          ))}
        </ul>
      )}
    </section>
  )
}
