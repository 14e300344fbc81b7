import { serveJobs } from '../lib/worker-pool'
import { sheetWorkerJob } from './sheet-reads'

serveJobs(sheetWorkerJob)
