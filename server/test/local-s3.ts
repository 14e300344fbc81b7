import { mkdtemp, rm } from 'node:fs/promises'
import type { AddressInfo } from 'node:net'
import { tmpdir } from 'node:os'
import path from 'node:path'
// s3rver ships no types; the little of it used here is typed below.
// @ts-expect-error no declaration file
import S3rver from 's3rver'
import type { S3Settings } from '../src/files/s3-store'

interface S3rverInstance {
  run(): Promise<AddressInfo>
  close(): Promise<void>
}

export interface LocalS3 {
  settings: S3Settings
  stop(): Promise<void>
}

/**
 * An S3-compatible server of the test's own (s3rver, from npm) on a free loopback port, keeping its objects in a
 * fresh temporary directory, with one bucket made: the S3 store is tested against the protocol, not a mock.
 */
export async function startLocalS3(bucket = 'quiz-files'): Promise<LocalS3> {
  const directory = await mkdtemp(path.join(tmpdir(), 'quiz-s3-'))
  const server = new S3rver({
    address: '127.0.0.1',
    port: 0,
    silent: true,
    directory,
    configureBuckets: [{ name: bucket }],
  }) as S3rverInstance
  const { port } = await server.run()
  return {
    settings: {
      endpoint: `http://127.0.0.1:${port}`,
      bucket,
      region: 'us-east-1',
      // s3rver's fixed credentials.
      accessKeyId: 'S3RVER',
      secretAccessKey: 'S3RVER',
      forcePathStyle: true,
    },
    async stop() {
      await server.close()
      await rm(directory, { recursive: true, force: true })
    },
  }
}
