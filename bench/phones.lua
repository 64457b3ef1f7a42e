-- Each connection is one phone: a poll about every 2 s. wrk opens every connection at
-- once; phones at real tables sit down over minutes, so their polls are spread over
-- the 2 s: each connection's first poll comes at a random moment of its first 2 s
-- (wrk passes the connections per thread after "--"), the next ones 1.5-2.5 s after
-- the answer. Prints the 95th percentile latency, which wrk leaves out.
local first_polls = 0

function init(args)
  first_polls = tonumber(args[1]) or 0
end

function delay()
  if first_polls > 0 then
    first_polls = first_polls - 1
    return math.random(0, 2000)
  end
  return math.random(1500, 2500)
end

function done(summary, latency, requests)
  io.write(string.format("P95_MS %.2f\n", latency:percentile(95) / 1000))
  io.write(string.format("P50_MS %.2f\n", latency:percentile(50) / 1000))
end
