import { useId } from 'react'
import { useTranslation } from 'react-i18next'
import { Button } from '../../../components/ui/button'
import { newGroup, withoutGroup, type RubricDraft, type RubricGroupDraft } from './rubric-draft'
import { NumberInput, TextInput } from './rubric-inputs'
import { RubricItems } from './rubric-items'
import '../admin.i18n'
import './rubric.css'

interface RubricEditorProps {
  draft: RubricDraft
  onChange: (draft: RubricDraft) => void
  disabled?: boolean
}

/**
 * A written question's rubric (WEB.md "Written answers"): items with signed points, a title and an explanation in
 * each language, optional groups of which an answer may take one item, positive or negative scoring and the bounds.
 * Items move by dragging, or by the keyboard with their Move up / Move down buttons.
 */
export function RubricEditor({ draft, onChange, disabled = false }: RubricEditorProps) {
  const { t } = useTranslation('admin')
  const headingId = useId()
  const setGroup = (index: number, group: Partial<RubricGroupDraft>) =>
    onChange({ ...draft, groups: draft.groups.map((entry, at) => (at === index ? { ...entry, ...group } : entry)) })

  return (
    <fieldset className="rubric" aria-labelledby={headingId} disabled={disabled}>
      <legend id={headingId}>{t('written.rubric.heading')}</legend>
      <p className="field__hint">{t('written.rubric.hint')}</p>

      <div className="rubric__scoring" role="radiogroup" aria-label={t('written.rubric.scoring')}>
        {(['positive', 'negative'] as const).map((scoring) => (
          <label key={scoring} className="rubric__radio">
            <input
              type="radio"
              name={`${headingId}-scoring`}
              checked={draft.scoring === scoring}
              onChange={() => onChange({ ...draft, scoring })}
            />
            <span>{t(`written.rubric.scoring_${scoring}`)}</span>
          </label>
        ))}
      </div>
      <div className="admin-grid">
        <NumberInput
          label={t('written.rubric.floor')}
          hint={t('written.rubric.floor_hint')}
          value={draft.floor}
          onChange={(floor) => onChange({ ...draft, floor })}
        />
        <NumberInput
          label={t('written.rubric.ceiling')}
          hint={t('written.rubric.ceiling_hint')}
          value={draft.ceiling}
          onChange={(ceiling) => onChange({ ...draft, ceiling })}
        />
      </div>

      <RubricItems draft={draft} onChange={onChange} disabled={disabled} />

      <h4>{t('written.rubric.groups')}</h4>
      <p className="field__hint">{t('written.rubric.groups_hint')}</p>
      <ul className="rubric__groups">
        {draft.groups.map((group, index) => (
          <li key={group.key} className="rubric__group">
            <div className="admin-grid">
              <TextInput
                label={t('written.rubric.group_title_en', { number: index + 1 })}
                lang="en"
                value={group.title.en}
                onChange={(en) => setGroup(index, { title: { ...group.title, en } })}
              />
              <TextInput
                label={t('written.rubric.group_title_ne', { number: index + 1 })}
                lang="ne"
                value={group.title.ne}
                onChange={(ne) => setGroup(index, { title: { ...group.title, ne } })}
              />
            </div>
            <label className="rubric__check">
              <input
                type="checkbox"
                checked={group.exclusive}
                onChange={(event) => setGroup(index, { exclusive: event.target.checked })}
              />
              <span>{t('written.rubric.exclusive')}</span>
            </label>
            <Button
              small
              variant="danger"
              aria-label={t('written.rubric.remove_group', { number: index + 1 })}
              onClick={() => onChange(withoutGroup(draft, group.key))}
            >
              {t('written.rubric.remove')}
            </Button>
          </li>
        ))}
      </ul>
      <Button onClick={() => onChange({ ...draft, groups: [...draft.groups, newGroup()] })}>
        {t('written.rubric.add_group')}
      </Button>
    </fieldset>
  )
}
