import { pictureMessages, type ImportMessage } from '@quiz/contracts'
import { decodeDataUrl, type PictureRefusal } from '../../pictures/picture-encoding'
import { plain, runsText, type DraftPicture, type DraftText } from './draft'
import { hasDevanagari } from '../legacy'
import { readsAsLegacy } from '../legacy-font'
import { decodeEntities, htmlToText, withoutComments } from './html'
import { tableRefusals } from './html-tables'

// Read as Moodle reads it (API.md "Moodle's formats are read as Moodle reads them").

const note = (field: string, code: ImportMessage['code'], message: string): ImportMessage => ({ field, code, message })

// Moodle's embedded-answer (Cloze) subquestions: `{1:MULTICHOICE:=a~b}`, `{:SA:…}`, their short names and variants.
// `\d+` optional as a group: `\s*\d*\s*` would split a run of spaces two ways at every length.
const CLOZE =
  /\{\s*(?:\d+\s*)?:\s*(?:MULTICHOICE|MULTIRESPONSE|SHORTANSWER|NUMERICAL|MC|MR|SA|MW|NM)(?:_?[A-Z]{1,3})?\s*:/

export const isCloze = (text: string) => CLOZE.test(text)

export const clozeNote = (): ImportMessage =>
  note(
    'row',
    'unsupported_type',
    'This is an embedded answers (Cloze) question, which cannot be imported; only multiple choice with one right answer.',
  )

const MEDIA_FILE = /\.(?:mp3|wav|ogg|oga|m4a|aac|flac|wma|mp4|m4v|webm|ogv|mov|avi|wmv|flv|mkv|3gp)(?:[?#][^\s"'<>]*)?/i
const PICTURE_FILE = /\.(?:png|jpe?g|gif|bmp|svg|webp|tiff?)(?:[?#][^\s"'<>]*)?$/i

export interface PictureTarget {
  into: DraftPicture[] | null
  files?: ReadonlyMap<string, string>
}

export const refusalMessage = (name: string, refusal: PictureRefusal) =>
  refusal === 'too_large'
    ? `${name} is larger than 5 MB.`
    : refusal === 'too_many_pixels'
      ? `${name} is larger than 50 megapixels.`
      : refusal === 'too_costly'
        ? `${name} takes too long to read (a progressive JPEG of over 64 scans): save it again as an ordinary JPEG or PNG.`
        : `${name} is not a picture the bank can hold (PNG, JPEG, WebP or GIF).`

const PLUGINFILE = '@@PLUGINFILE@@/'
const IMG = /<img\b[^>]*>/gi
const attribute = (tag: string, name: string) => {
  const match = new RegExp(`\\s${name}\\s*=\\s*(?:"([^"]*)"|'([^']*)'|([^\\s"'>]+))`, 'i').exec(tag)
  return match ? decodeEntities(match[1] ?? match[2] ?? match[3] ?? '') : null
}

function pluginFile(address: string, files: ReadonlyMap<string, string> | undefined): Buffer | PictureRefusal | null {
  let name = address.slice(PLUGINFILE.length).replace(/[?#].*$/, '')
  try {
    name = decodeURIComponent(name)
  } catch {
    return null
  }
  const base64 = files?.get(name)
  return base64 === undefined ? null : decodeDataUrl(`data:;base64,${base64}`)
}

function imgPictures(source: string, field: string, target: PictureTarget, notes: ImportMessage[]) {
  for (const [tag] of source.matchAll(IMG)) {
    const src = (attribute(tag, 'src') ?? '').trim()
    const alt = (attribute(tag, 'alt') ?? '').trim()
    if (!target.into) {
      notes.push(note(field, 'image', 'A picture here cannot be imported: only a question and its options hold one.'))
      continue
    }
    let bytes: Buffer | PictureRefusal | null
    let name = 'The picture in this text'
    if (/^data:/i.test(src)) bytes = decodeDataUrl(src)
    else if (src.startsWith(PLUGINFILE)) {
      name = `The picture ${src.slice(PLUGINFILE.length)}`
      bytes = pluginFile(src, target.files)
      if (bytes === null) {
        notes.push(note(field, 'image', `${name} is not in this file: export the question again with its files.`))
        continue
      }
    } else {
      notes.push(
        note(
          field,
          'image',
          /^(https?:)?\/\//i.test(src)
            ? pictureMessages.linked
            : `The picture "${src}" is only named, not in the file: put the picture itself in the file.`,
        ),
      )
      continue
    }
    if (typeof bytes === 'string') notes.push(note(field, 'image', refusalMessage(name, bytes)))
    else target.into.push({ bytes, alt, name })
  }
}

// Never dropped with the row `ok` (API.md "Fidelity").
export function mediaNotes(raw: string, field: string, isHtml = true, target?: PictureTarget): ImportMessage[] {
  const notes: ImportMessage[] = []
  if (!isHtml) {
    // Markup in text is text ("<img src=…>" in a question about HTML); only a link to a media file plays.
    if ([...raw.matchAll(/\bhttps?:\/\/[^\s"'<>)\]]+/gi)].some((match) => MEDIA_FILE.test(match[0])))
      notes.push(note(field, 'media', 'This text links to audio or video, which cannot be imported.'))
    return notes
  }
  let source = withoutComments(raw)
  if (target) {
    imgPictures(source, field, target, notes)
    source = source.replace(IMG, '')
  }
  const links = [...source.matchAll(/\b(?:href|src|data)\s*=\s*["']?([^"'\s>]+)/gi)].map((match) => match[1]!)
  const bareLinks = [...source.matchAll(/\bhttps?:\/\/[^\s"'<>)\]]+/gi)].map((match) => match[0])
  const pictureFiles = [...links, ...bareLinks].filter((link) => PICTURE_FILE.test(link))
  if (/<(?:img|svg|image)\b/i.test(source) || pictureFiles.length > 0)
    notes.push(
      note(
        field,
        'image',
        pictureFiles.some((link) => /^(https?:)?\/\//i.test(link))
          ? pictureMessages.linked
          : 'This text shows a drawing or a linked picture, which cannot be imported.',
      ),
    )
  if (
    /<audio\b/i.test(source) ||
    [...links, ...bareLinks].some((link) => /\.(?:mp3|wav|ogg|oga|m4a|aac|flac|wma)\b/i.test(link))
  )
    notes.push(note(field, 'media', 'This text plays audio, which cannot be imported.'))
  else if (
    /<(?:video|iframe|object|embed)\b/i.test(source) ||
    [...links, ...bareLinks].some((link) => MEDIA_FILE.test(link))
  )
    notes.push(note(field, 'media', 'This text plays a video or embeds a player, which cannot be imported.'))
  for (const refusal of tableRefusals(source))
    notes.push(
      note(
        field,
        'table',
        refusal === 'merged'
          ? "This text holds a table with merged cells (colspan, rowspan), which a question's table cannot hold."
          : "This text holds a table inside a table, which a question's table cannot hold.",
      ),
    )
  if (/<math\b/i.test(source))
    notes.push(note(field, 'equation', 'This text holds a MathML equation, which cannot be imported.'))
  return notes
}

// Any `$` but `$$` is a dollar sign in Moodle, escaped as `\$`, so that "$5 or $10" stays money.
export function moodleMaths(text: string): { text: string; rewritten: boolean } {
  // Walked once, each closing delimiter searched for at most until it is known to be absent: linear in the text.
  let rewritten = false
  const out: string[] = []
  const absent = new Set<string>()
  const find = (closer: string, from: number) => {
    if (absent.has(closer)) return -1
    const at = text.indexOf(closer, from)
    if (at < 0) absent.add(closer)
    return at
  }
  const special = /[$\\]/g
  let kept = 0
  for (let match = special.exec(text); match; match = special.exec(text)) {
    const at = match.index
    let end = -1
    let replacement: string | null = null
    if (text.startsWith('$$', at)) {
      const close = find('$$', at + 3)
      if (close >= 0) end = close + 2 // display maths stays as it is
    }
    if (end < 0 && (text.startsWith('\\(', at) || text.startsWith('\\[', at))) {
      const inline = text[at + 1] === '('
      const close = find(inline ? '\\)' : '\\]', at + 3)
      if (close >= 0) {
        const inner = text.slice(at + 2, close).trim()
        replacement = inline ? `$${inner}$` : `$$${inner}$$`
        rewritten = true
        end = close + 2
      }
    }
    if (end < 0 && text.startsWith('\\$', at)) end = at + 2
    if (end < 0 && text[at] === '$') {
      replacement = '\\$'
      end = at + 1
    }
    if (end < 0) continue // a backslash that starts none of these
    out.push(text.slice(kept, at), replacement ?? text.slice(at, end))
    kept = end
    special.lastIndex = end
  }
  out.push(text.slice(kept))
  return { text: out.join(''), rewritten }
}

// Moodle's multilang spans and {mlang} blocks: the reader's language is shown, `other` as fallback.
const SPAN = String.raw`<span\b(?=[^>]*\bclass\s*=\s*["'][^"']*\bmultilang\b)[^>]*\blang\s*=\s*["']?([\w-]+)["']?[^>]*>([\s\S]*?)<\/span>`
const MLANG = String.raw`\{mlang\s+([\w-]+(?:\s*,\s*[\w-]+)*)\s*\}([\s\S]*?)\{mlang\}`
const SPAN_GROUP = new RegExp(`${SPAN}(?:\\s*${SPAN})*`, 'gi')
const MLANG_GROUP = new RegExp(`${MLANG}(?:\\s*${MLANG})*`, 'gi')

const languageOf = (code: string) => code.toLowerCase().split(/[-_]/)[0]!

function pickFrom(group: string, one: RegExp, language: 'en' | 'ne'): string {
  const parts = [...group.matchAll(one)].map((match) => ({
    languages: match[1]!.split(',').map((code) => languageOf(code.trim())),
    text: match[2]!,
  }))
  const found =
    parts.find((part) => part.languages.includes(language)) ??
    parts.find((part) => part.languages.includes('other')) ??
    (language === 'en' ? parts[0] : undefined)
  return found?.text ?? ''
}

const MAX_LANGUAGE_PARTS = 100
const openings = (raw: string) => {
  let n = 0
  for (const opening of raw.matchAll(/<span\b|\{mlang\b/gi)) if (opening && ++n > MAX_LANGUAGE_PARTS) break
  return n
}

export function splitMultilang(raw: string): { en: string; ne: string } | null {
  const groups: [RegExp, RegExp][] = [
    [SPAN_GROUP, new RegExp(SPAN, 'gi')],
    [MLANG_GROUP, new RegExp(MLANG, 'gi')],
  ]
  // A text with more openings than any real one has is not split: each unclosed opening rescans what follows it.
  if (openings(raw) > MAX_LANGUAGE_PARTS) return null
  if (!groups.some(([group]) => new RegExp(group.source, 'i').test(raw))) return null
  const resolve = (language: 'en' | 'ne') =>
    groups.reduce((text, [group, one]) => text.replace(group, (match) => pickFrom(match, one, language)), raw)
  const hasNepali = groups.some(([, one]) =>
    [...raw.matchAll(one)].some((match) => match[1]!.split(',').some((code) => languageOf(code.trim()) === 'ne')),
  )
  const en = resolve('en')
  return { en, ne: hasNepali ? resolve('ne') : '' }
}

export function moodleText(
  raw: string,
  isHtml: boolean,
  field: string,
  notes: ImportMessage[],
  pictures?: PictureTarget,
): { text: DraftText; plain: string } {
  notes.push(...mediaNotes(raw, field, isHtml, pictures))
  let rewritten = false
  const read = (source: string) => {
    const text = isHtml ? htmlToText(source) : withoutComments(source).trim()
    // Preeti text uses `$` for ४ and `\` for ्: left for the converter unless it holds Moodle's maths delimiters.
    if (!hasDevanagari(text) && !/\\\(|\\\[/.test(text) && readsAsLegacy(text)) return text
    const maths = moodleMaths(text)
    rewritten ||= maths.rewritten
    return maths.text
  }
  const split = splitMultilang(raw)
  let text: DraftText
  let flat: string
  if (split && split.ne.trim() !== '') {
    text = { en: plain(read(split.en)), ne: plain(read(split.ne)) }
    flat = `${read(split.en)}\n${read(split.ne)}`
  } else {
    flat = read(split ? split.en : raw)
    text = { mixed: plain(flat) }
  }
  if (rewritten)
    notes.push(
      note(field, 'maths_rewritten', "Moodle's maths delimiters \\(…\\) and \\[…\\] were written as $…$ and $$…$$."),
    )
  return { text, plain: flat }
}

export const isEmpty = (text: DraftText) =>
  'mixed' in text ? runsText(text.mixed).trim() === '' : runsText(text.en).trim() + runsText(text.ne).trim() === ''
