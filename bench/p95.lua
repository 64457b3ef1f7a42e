function done(summary, latency, requests)
  io.write(string.format("P95_MS %.2f\n", latency:percentile(95) / 1000))
end
