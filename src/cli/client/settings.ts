/**
 * Where the client commands send requests and with which key: --url / --api-key, else CURATA_URL /
 * CURATA_API_KEY, else the file `curata login` wrote (CURATA_CONFIG, default
 * ~/.config/curata/config.json, mode 0600 since it holds the key).
 */
import { chmodSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs'
import { dirname } from 'node:path'

import type { Config } from '../../platform/config.ts'
import { UsageError } from './errors.ts'

export interface Target {
  url: string
  apiKey: string
}

export interface GlobalFlags {
  url?: string
  apiKey?: string
  json?: boolean
}

interface Stored {
  url?: string
  api_key?: string
}

export function readStored(file: string): Stored {
  if (!existsSync(file)) return {}
  try {
    return JSON.parse(readFileSync(file, 'utf8')) as Stored
  } catch {
    throw new UsageError(`${file} is not a Curata client configuration (JSON); run curata login again`)
  }
}

export function writeStored(file: string, target: Target): void {
  mkdirSync(dirname(file), { recursive: true, mode: 0o700 })
  writeFileSync(file, `${JSON.stringify({ url: target.url, api_key: target.apiKey }, null, 2)}\n`, { mode: 0o600 })
  // writeFileSync keeps the mode of a file that already exists: make sure.
  chmodSync(file, 0o600)
}

export function checkUrl(url: string): string {
  let u: URL
  try {
    u = new URL(url)
  } catch {
    throw new UsageError(`--url must be an http(s) URL, got ${JSON.stringify(url)}`)
  }
  if (u.protocol !== 'http:' && u.protocol !== 'https:') throw new UsageError(`--url must be an http(s) URL, got ${JSON.stringify(url)}`)
  return url.replace(/\/+$/, '')
}

export function resolveTarget(flags: GlobalFlags, config: Config): Target {
  const stored = readStored(config.client.configFile)
  const url = flags.url ?? config.client.url ?? stored.url
  const apiKey = flags.apiKey ?? config.apiKey ?? stored.api_key
  if (!url) throw new UsageError('no service URL: pass --url, set CURATA_URL, or run curata login')
  if (!apiKey) throw new UsageError('no API key: pass --api-key, set CURATA_API_KEY, or run curata login')
  return { url: checkUrl(url), apiKey }
}
