import { serveJobs } from '../../lib/worker-pool'
import { runJob } from './read-job'

// A crash (a bug a crafted file found) comes back as `crashed`, and the pool refuses the file.
serveJobs(runJob)
