// Generates `index.d.ts` (request and response interfaces and one typed method per tool)
// from the core catalog's JSON schemas. Nothing in it is written by hand.
//
//   node node/codegen.mjs           # regenerate
//   node node/codegen.mjs --check   # fail when the committed file drifts from the catalog
//
// The catalog comes from `cargo run -q -p toolpack --example catalog` (or `--catalog FILE`).
import { execFileSync } from 'node:child_process'
import { existsSync, readFileSync, writeFileSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'

const here = dirname(fileURLToPath(import.meta.url))
const target = join(here, 'index.d.ts')

function loadCatalog() {
  const i = process.argv.indexOf('--catalog')
  if (i >= 0) return JSON.parse(readFileSync(process.argv[i + 1], 'utf8'))
  const out = execFileSync('cargo', ['run', '-q', '--locked', '-p', 'toolpack', '--example', 'catalog'], {
    cwd: join(here, '..'),
    encoding: 'utf8',
  })
  return JSON.parse(out)
}

const pascal = (s) => s.split(/[_\-\s]+/).filter(Boolean).map((p) => p[0].toUpperCase() + p.slice(1)).join('')
const camel = (s) => s.replace(/[_-]([a-z0-9])/g, (_, c) => c.toUpperCase())
const key = (k) => (/^[A-Za-z_$][A-Za-z0-9_$]*$/.test(k) ? k : JSON.stringify(k))

function comment(text, indent) {
  if (!text) return ''
  const lines = text.replace(/\*\//g, '*\\/').split('\n')
  if (lines.length === 1) return `${indent}/** ${lines[0]} */\n`
  return `${indent}/**\n${lines.map((l) => `${indent} *${l ? ' ' + l : ''}`).join('\n')}\n${indent} */\n`
}

class Generator {
  constructor() {
    this.defs = new Map()
    this.schemas = new Map()
  }

  define(name, schema, source) {
    if (this.schemas.has(name)) {
      if (JSON.stringify(this.schemas.get(name)) !== JSON.stringify(schema)) {
        throw new Error(`codegen: two different types are both named ${name}; rename one in core`)
      }
      return name
    }
    this.schemas.set(name, schema)
    this.defs.set(name, '')
    this.defs.set(name, source())
    return name
  }

  type(schema, defs, hint) {
    if (schema === true || schema === undefined || Object.keys(schema).length === 0) return 'unknown'
    if (schema.$ref) {
      const ref = schema.$ref.split('/').pop()
      return this.named(ref, defs[ref], defs)
    }
    if ('const' in schema) return JSON.stringify(schema.const)
    if (schema.enum) return schema.enum.map((v) => JSON.stringify(v)).join(' | ')
    for (const combo of ['oneOf', 'anyOf']) {
      if (schema[combo]) {
        return [...new Set(schema[combo].map((s, i) => this.type(s, defs, `${hint}${i}`)))].join(' | ')
      }
    }
    if (Array.isArray(schema.type)) {
      return [...new Set(schema.type.map((t) => this.type({ ...schema, type: t }, defs, hint)))].join(' | ')
    }
    switch (schema.type) {
      case 'string': return 'string'
      case 'integer':
      case 'number': return 'number'
      case 'boolean': return 'boolean'
      case 'null': return 'null'
      case 'array': {
        const item = this.type(schema.items ?? true, defs, `${hint}Item`)
        return /[|&]/.test(item) ? `Array<${item}>` : `${item}[]`
      }
      default:
        if (schema.type === 'object' || schema.properties) {
          if (!schema.properties || Object.keys(schema.properties).length === 0) return 'Record<string, unknown>'
          return this.named(schema.title ?? hint, schema, defs)
        }
        return 'unknown'
    }
  }

  named(name, schema, defs) {
    name = pascal(name)
    if (schema.type === 'object' || schema.properties) {
      return this.define(name, schema, () => this.interface(name, schema, defs))
    }
    return this.define(name, schema, () => {
      const rest = { ...schema }
      delete rest.title
      return `${comment(schema.description, '')}export type ${name} = ${this.type(rest, defs, name)}\n`
    })
  }

  interface(name, schema, defs) {
    const required = new Set(schema.required ?? [])
    let out = `${comment(schema.description ?? `The \`${name}\` object.`, '')}export interface ${name} {\n`
    for (const [prop, sub] of Object.entries(schema.properties ?? {})) {
      const t = this.type(sub, defs, name + pascal(prop))
      out += comment(sub.description, '  ')
      out += `  ${key(prop)}${required.has(prop) ? '' : '?'}: ${t}\n`
    }
    return out + '}\n'
  }
}

/**
 * What a typed method resolves to: the output schema without its error-envelope branches
 * (an object whose only required property is `error`), which reject instead.
 */
function successSchema(schema) {
  const defs = schema.$defs ?? {}
  const isEnvelope = (branch) => {
    const target = branch.$ref ? defs[branch.$ref.split('/').pop()] ?? {} : branch
    return JSON.stringify(target.required) === '["error"]'
  }
  const kept = (schema.anyOf ?? []).filter((b) => !isEnvelope(b))
  return kept.length === 1 && kept.length < schema.anyOf.length ? { ...kept[0], $defs: defs } : schema
}

function generate(catalog) {
  const gen = new Generator()
  const methods = []
  for (const tool of catalog) {
    const input = tool.inputSchema
    const request = gen.type(input, input.$defs ?? {}, pascal(tool.name) + 'Request')
    const output = successSchema(tool.outputSchema)
    const response = gen.type(output, output.$defs ?? {}, pascal(tool.name) + 'Response')
    const doc = `${tool.description}\n\nRejects with a \`ToolpackError\` (\`.code\`, \`.kind\`, \`.payload\`) when the tool answers with a contract error.`
    methods.push(`${comment(doc, '  ')}  ${camel(tool.name)}(args: ${request}): Promise<${response}>\n`)
  }
  const names = catalog.map((t) => JSON.stringify(t.name)).join(', ')
  return `// Generated by \`node/codegen.mjs\` from the toolpack catalog (the core's JSON schemas).
// Do not edit: regenerate.

${[...gen.defs.values()].join('\n')}
/** Settings: the core's setting names in camelCase (\`tflApiKey\` is \`TFL_API_KEY\`). */
export interface ToolpackOptions {
  [setting: string]: string | number | undefined | null
}

/** One catalog tool, with MCP field names. */
export interface ToolInfo {
  name: string
  title: string
  description: string
  toolset: string
  inputSchema: Record<string, unknown>
  outputSchema: Record<string, unknown>
  annotations: Record<string, unknown>
}

/** The MCP \`CallToolResult\` JSON of a call, exactly as an MCP client gets it. */
export interface CallToolResult {
  content: Array<{ type: 'text'; text: string }>
  structuredContent: Record<string, unknown>
  isError: boolean
}

/** A typed call answered with a contract error. */
export declare class ToolpackError extends Error {
  /** The tool's catalog name. */
  readonly tool: string
  /** The contract's exact error code, e.g. \`STATION_NOT_FOUND\`. */
  readonly code: string
  /** The error's kind. */
  readonly kind: 'validation' | 'not_found' | 'disambiguation_required' | 'rate_limited' | 'upstream_timeout' | 'upstream' | 'data_not_available' | 'already_exists' | 'permission_denied' | 'internal' | 'other'
  /** The contract's error JSON. */
  readonly payload: Record<string, any>
}

/** Every tool of the catalog, in catalog order. */
export declare const TOOL_NAMES: readonly [${names}]

/** The toolpack client: one async method per catalog tool, plus \`call\` and \`tools\`. */
export declare class Toolpack {
  /** A client configured only by \`options\` (the environment is not read). A bad setting throws. */
  constructor(options?: ToolpackOptions)
  /** A client configured from the process environment, with \`overrides\` on top. */
  static fromEnv(overrides?: ToolpackOptions): Toolpack
  /** Every tool: name, description, input and output JSON schema, annotations. */
  static tools(): ToolInfo[]
  /** A client on the same toolpack acting for \`callerId\` (its own saved places and rate limits). */
  forCaller(callerId: string): Toolpack
  /** The id of the caller this client acts for (\`'local'\` by default). */
  readonly callerId: string
  /** Calls tool \`name\`; resolves to the MCP result JSON (contract errors resolve, not reject). */
  call(name: string, args?: Record<string, unknown> | null): Promise<CallToolResult>
${methods.join('')}}

declare const toolpack: { Toolpack: typeof Toolpack; ToolpackError: typeof ToolpackError; TOOL_NAMES: typeof TOOL_NAMES }
export default toolpack
`
}

const text = generate(loadCatalog())
if (process.argv.includes('--check')) {
  if (!existsSync(target) || readFileSync(target, 'utf8') !== text) {
    console.error('codegen: node/index.d.ts is out of date with the catalog; run `node node/codegen.mjs`')
    process.exit(1)
  }
  console.log('codegen: generated TypeScript types match the catalog')
} else {
  writeFileSync(target, text)
  console.log('codegen: wrote node/index.d.ts')
}
