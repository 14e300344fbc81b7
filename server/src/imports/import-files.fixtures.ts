import ExcelJS from 'exceljs'
import { strToU8, zipSync } from 'fflate'
import { testConfig } from '../../test/test-app'
import { sharedReadPool } from './worker/pool'

// Test files made in the real formats: an xlsx written by exceljs (cells and rich-text runs with their fonts), a
// docx zipped from OOXML parts as Word writes them (runs in several fonts, a picture, an equation, a table), a
// Moodle XML export as Moodle writes it, GIFT and Aiken text, and hostile files (a zip bomb, an encrypted file).

export type Cell = string | { text: string; font: string } | { runs: { text: string; font?: string }[] }

/** An xlsx whose first sheet is `rows` (the first row is the header); a cell may carry a font or rich-text runs. */
export async function xlsxFile(rows: Cell[][], extraSheetFirst = false): Promise<Buffer> {
  const workbook = new ExcelJS.Workbook()
  if (extraSheetFirst) workbook.addWorksheet('Notes').addRow(['not questions'])
  const sheet = workbook.addWorksheet('Questions')
  rows.forEach((cells, index) => {
    const row = sheet.getRow(index + 1)
    cells.forEach((cell, column) => {
      const target = row.getCell(column + 1)
      if (typeof cell === 'string') target.value = cell
      else if ('runs' in cell)
        target.value = {
          richText: cell.runs.map((run) => ({ text: run.text, ...(run.font ? { font: { name: run.font } } : {}) })),
        }
      else {
        target.value = cell.text
        target.font = { name: cell.font, size: 12 }
      }
    })
    row.commit()
  })
  return Buffer.from(await workbook.xlsx.writeBuffer())
}

export type DocxRun = { text: string; font?: string } | { image: true } | { math: string } | { break: true }
export type DocxBlock = DocxRun[] | { table: string[][] } | { list: 'question' | 'option'; runs: DocxRun[] }

const escapeXml = (text: string) => text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;')

function runXml(run: DocxRun): string {
  if ('image' in run)
    return `<w:r><w:drawing><wp:inline distT="0" distB="0" distL="0" distR="0"><wp:extent cx="952500" cy="952500"/><wp:docPr id="1" name="Picture 1"/><a:graphic xmlns:a="http://schemas.openxmlformats.org/drawingml/2006/main"><a:graphicData uri="http://schemas.openxmlformats.org/drawingml/2006/picture"><pic:pic xmlns:pic="http://schemas.openxmlformats.org/drawingml/2006/picture"><pic:blipFill><a:blip r:embed="rId9"/></pic:blipFill></pic:pic></a:graphicData></a:graphic></wp:inline></w:drawing></w:r>`
  if ('math' in run) return `<m:oMath><m:r><m:t>${escapeXml(run.math)}</m:t></m:r></m:oMath>`
  if ('break' in run) return '<w:r><w:br/></w:r>'
  const rPr = run.font
    ? `<w:rPr><w:rFonts w:ascii="${run.font}" w:hAnsi="${run.font}" w:cs="${run.font}"/><w:sz w:val="24"/></w:rPr>`
    : ''
  // Word splits text into runs wherever it likes (spell-check marks, edits): a run per word boundary here too.
  return `<w:r w:rsidR="00A1B2C3">${rPr}<w:t xml:space="preserve">${escapeXml(run.text)}</w:t></w:r>`
}

// Word's own numbered list (numId 1: decimal, then lowerLetter at level 1), as the Numbering button makes it.
const paragraphXml = (runs: DocxRun[], list?: 'question' | 'option') =>
  `<w:p w:rsidR="00A1B2C3" w:rsidRDefault="00A1B2C3"><w:pPr>${list ? `<w:numPr><w:ilvl w:val="${list === 'question' ? 0 : 1}"/><w:numId w:val="1"/></w:numPr>` : ''}<w:spacing w:after="0"/></w:pPr>${runs.map(runXml).join('')}</w:p>`

const numbering = `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>
<w:numbering xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main"><w:abstractNum w:abstractNumId="0"><w:multiLevelType w:val="hybridMultilevel"/><w:lvl w:ilvl="0"><w:start w:val="1"/><w:numFmt w:val="decimal"/><w:lvlText w:val="%1."/></w:lvl><w:lvl w:ilvl="1"><w:start w:val="1"/><w:numFmt w:val="lowerLetter"/><w:lvlText w:val="(%2)"/></w:lvl></w:abstractNum><w:num w:numId="1"><w:abstractNumId w:val="0"/></w:num></w:numbering>`

/** A docx as Word writes one: content types, relationships, document and styles (default font Calibri). */
export function docxFile(blocks: DocxBlock[], defaultFont = 'Calibri'): Buffer {
  const body = blocks
    .map((block) =>
      Array.isArray(block)
        ? paragraphXml(block)
        : 'list' in block
          ? paragraphXml(block.runs, block.list)
          : `<w:tbl><w:tblPr><w:tblW w:w="0" w:type="auto"/></w:tblPr>${block.table
              .map(
                (row) => `<w:tr>${row.map((cell) => `<w:tc>${paragraphXml([{ text: cell }])}</w:tc>`).join('')}</w:tr>`,
              )
              .join('')}</w:tbl>`,
    )
    .join('')
  const document = `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>
<w:document xmlns:wpc="http://schemas.microsoft.com/office/word/2010/wordprocessingCanvas" xmlns:mc="http://schemas.openxmlformats.org/markup-compatibility/2006" xmlns:r="http://schemas.openxmlformats.org/officeDocument/2006/relationships" xmlns:m="http://schemas.openxmlformats.org/officeDocument/2006/math" xmlns:wp="http://schemas.openxmlformats.org/drawingml/2006/wordprocessingDrawing" xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main" mc:Ignorable="w14"><w:body>${body}<w:sectPr><w:pgSz w:w="11906" w:h="16838"/></w:sectPr></w:body></w:document>`
  const styles = `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>
<w:styles xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main"><w:docDefaults><w:rPrDefault><w:rPr><w:rFonts w:ascii="${defaultFont}" w:hAnsi="${defaultFont}" w:cs="Mangal"/><w:sz w:val="22"/></w:rPr></w:rPrDefault></w:docDefaults><w:style w:type="paragraph" w:default="1" w:styleId="Normal"><w:name w:val="Normal"/></w:style></w:styles>`
  return Buffer.from(
    zipSync({
      '[Content_Types].xml': strToU8(
        `<?xml version="1.0" encoding="UTF-8" standalone="yes"?><Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"><Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/><Default Extension="xml" ContentType="application/xml"/><Default Extension="png" ContentType="image/png"/><Override PartName="/word/document.xml" ContentType="application/vnd.openxmlformats-officedocument.wordprocessingml.document.main+xml"/><Override PartName="/word/styles.xml" ContentType="application/vnd.openxmlformats-officedocument.wordprocessingml.styles+xml"/></Types>`,
      ),
      '_rels/.rels': strToU8(
        `<?xml version="1.0" encoding="UTF-8" standalone="yes"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/officeDocument" Target="word/document.xml"/></Relationships>`,
      ),
      'word/_rels/document.xml.rels': strToU8(
        `<?xml version="1.0" encoding="UTF-8" standalone="yes"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/styles" Target="styles.xml"/><Relationship Id="rId9" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/image" Target="media/image1.png"/></Relationships>`,
      ),
      'word/document.xml': strToU8(document),
      'word/styles.xml': strToU8(styles),
      'word/numbering.xml': strToU8(numbering),
      'word/media/image1.png': new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    }),
  )
}

/** A Moodle XML export as Moodle 4 writes it: a category, single-answer multichoice, and other types. */
export const moodleXml = `<?xml version="1.0" encoding="UTF-8"?>
<quiz>
<!-- question: 0  -->
  <question type="category">
    <category>
      <text>$course$/top/Default for PSC/General Knowledge</text>
    </category>
    <info format="moodle_auto_format">
      <text></text>
    </info>
    <idnumber></idnumber>
  </question>

<!-- question: 101  -->
  <question type="multichoice">
    <name>
      <text>Capital</text>
    </name>
    <questiontext format="html">
      <text><![CDATA[<p dir="ltr" style="text-align: left;">What is the <strong>capital</strong> of Nepal?<br></p>]]></text>
    </questiontext>
    <generalfeedback format="html">
      <text><![CDATA[<p>Kathmandu &amp; its valley.</p>]]></text>
    </generalfeedback>
    <defaultgrade>1.0000000</defaultgrade>
    <penalty>0.3333333</penalty>
    <hidden>0</hidden>
    <idnumber></idnumber>
    <single>true</single>
    <shuffleanswers>true</shuffleanswers>
    <answernumbering>abc</answernumbering>
    <showstandardinstruction>0</showstandardinstruction>
    <correctfeedback format="html">
      <text>Your answer is correct.</text>
    </correctfeedback>
    <partiallycorrectfeedback format="html">
      <text>Your answer is partially correct.</text>
    </partiallycorrectfeedback>
    <incorrectfeedback format="html">
      <text>Your answer is incorrect.</text>
    </incorrectfeedback>
    <shownumcorrect/>
    <answer fraction="0" format="html">
      <text><![CDATA[<p>Pokhara</p>]]></text>
      <feedback format="html">
        <text></text>
      </feedback>
    </answer>
    <answer fraction="100" format="html">
      <text><![CDATA[<p>Kathmandu</p>]]></text>
      <feedback format="html">
        <text><![CDATA[<p>Right.</p>]]></text>
      </feedback>
    </answer>
    <answer fraction="0" format="html">
      <text><![CDATA[<p>Biratnagar</p>]]></text>
      <feedback format="html">
        <text></text>
      </feedback>
    </answer>
  </question>

<!-- question: 102  -->
  <question type="truefalse">
    <name>
      <text>Everest</text>
    </name>
    <questiontext format="html">
      <text><![CDATA[<p>Mount Everest is in Nepal.</p>]]></text>
    </questiontext>
    <generalfeedback format="html">
      <text></text>
    </generalfeedback>
    <defaultgrade>1.0000000</defaultgrade>
    <penalty>1.0000000</penalty>
    <hidden>0</hidden>
    <idnumber></idnumber>
    <answer fraction="100" format="moodle_auto_format">
      <text>true</text>
      <feedback format="html">
        <text></text>
      </feedback>
    </answer>
    <answer fraction="0" format="moodle_auto_format">
      <text>false</text>
      <feedback format="html">
        <text></text>
      </feedback>
    </answer>
  </question>

<!-- question: 103  -->
  <question type="multichoice">
    <name>
      <text>Rivers</text>
    </name>
    <questiontext format="html">
      <text><![CDATA[<p>नेपालको सबैभन्दा लामो नदी कुन हो?</p><p><img src="@@PLUGINFILE@@/map.png" alt="map" width="300"></p>]]></text>
    </questiontext>
    <generalfeedback format="html">
      <text></text>
    </generalfeedback>
    <single>true</single>
    <answer fraction="100" format="html">
      <text>कर्णाली</text>
      <feedback format="html"><text></text></feedback>
    </answer>
    <answer fraction="0" format="html">
      <text>कोशी</text>
      <feedback format="html"><text></text></feedback>
    </answer>
  </question>

<!-- question: 104  -->
  <question type="multichoice">
    <name>
      <text>Primes</text>
    </name>
    <questiontext format="html">
      <text><![CDATA[<p>Which are prime?</p>]]></text>
    </questiontext>
    <single>false</single>
    <answer fraction="50" format="html"><text>2</text></answer>
    <answer fraction="50" format="html"><text>3</text></answer>
    <answer fraction="-100" format="html"><text>4</text></answer>
  </question>
</quiz>
`

/**
 * A zip named like an xlsx with one entry of `bombBytes` zeros (inflates ~1000 times its size): a picture by default,
 * counted against the whole file's limit; a sheet meets the lower cap of a sheet first (issue 41, L4).
 */
export function zipBomb(bombBytes: number, entry = 'xl/media/image1.png'): Buffer {
  return Buffer.from(
    zipSync(
      {
        '[Content_Types].xml': strToU8('<Types/>'),
        'xl/workbook.xml': strToU8('<workbook/>'),
        'xl/worksheets/sheet1.xml': strToU8('<worksheet/>'),
        [entry]: new Uint8Array(bombBytes),
      },
      { level: 9 },
    ),
  )
}

/** The start of an Office file encrypted with a password: an OLE compound file, not a zip. */
export const encryptedOfficeFile = Buffer.concat([
  Buffer.from([0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1]),
  Buffer.alloc(4096, 0x20),
])

/**
 * Starts the test process's import worker and waits until it has read a file: under tsx its first start loads the
 * readers from source (seconds on a busy machine), which should not count against the first test's time.
 */
export async function warmImportWorker() {
  await sharedReadPool(testConfig().imports).read({
    input: { file: null, text: '1. Q?\nA. x\nB. y\nAnswer: A', format: undefined },
    legacyFont: 'auto',
    defaults: { tags: [] },
  })
}
