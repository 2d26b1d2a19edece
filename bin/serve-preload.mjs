// Preloaded into the dashboard's server process: `dra-posture serve` and `npm run bench:load` run
// `node --import bin/serve-preload.mjs next start`. Each module says why.
import './listen-backlog.mjs';
import './request-pacing.mjs';
