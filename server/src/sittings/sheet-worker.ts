import { serveJobs } from '../lib/worker-pool'
import { readSheetJob } from './sheet-reads'

serveJobs(readSheetJob)
