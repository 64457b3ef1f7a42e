-- Each connection is one phone: a poll about every 2 s (spread so they do not all
-- ask at once). Prints the 95th percentile latency, which wrk leaves out.
function delay()
  return math.random(1500, 2500)
end

function done(summary, latency, requests)
  io.write(string.format("P95_MS %.2f\n", latency:percentile(95) / 1000))
  io.write(string.format("P50_MS %.2f\n", latency:percentile(50) / 1000))
end
