// Preloaded (`node --import`) into a process the benches time: prints its peak RSS and CPU time on
// exit, which the parent cannot read of a child in Node (CPU time tells a busy machine from a slow run).
process.on('exit', () => {
  const cpu = process.cpuUsage();
  process.stderr.write(`\npeak-rss-bytes ${process.resourceUsage().maxRSS * 1024}\ncpu-ms ${Math.round((cpu.user + cpu.system) / 1000)}\n`);
});
