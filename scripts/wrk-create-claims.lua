-- wrk script: POSTs ~1.3 KB ResourceClaims with unique names (used by scripts/bench-apiserver --wrk).
-- Environment: JDRA_TOKEN (bearer token), JDRA_PREFIX (name prefix, default "k").
local counter = 0
local thread_id = 0
local threads = {}

function setup(thread)
  thread:set("id", #threads)
  table.insert(threads, thread)
end

function init(args)
  thread_id = id
  wrk.method = "POST"
  wrk.path = "/apis/resource.k8s.io/v1/namespaces/default/resourceclaims"
  wrk.headers["Content-Type"] = "application/json"
  wrk.headers["Authorization"] = "Bearer " .. (os.getenv("JDRA_TOKEN") or "")
end

local pad = string.rep("x", 600)
local prefix = os.getenv("JDRA_PREFIX") or "k"

function request()
  counter = counter + 1
  local body = '{"apiVersion":"resource.k8s.io/v1","kind":"ResourceClaim","metadata":{"name":"' ..
    prefix .. thread_id .. "-" .. counter ..
    '","labels":{"app":"bench","pad":"p"},"annotations":{"pad":"' .. pad ..
    '"}},"spec":{"devices":{"requests":[{"name":"gpu","exactly":{' ..
    '"deviceClassName":"gpu.example.com","allocationMode":"ExactCount","count":1}}]}}}'
  return wrk.format(nil, nil, nil, body)
end

errors = 0
function response(status, headers, body)
  if status ~= 201 then
    errors = errors + 1
  end
end

function done(summary, latency, requests)
  local non201 = 0
  for _, t in ipairs(threads) do
    non201 = non201 + (t:get("errors") or 0)
  end
  io.write(string.format("[bench] wrk creates: %.0f/s, latency p50 %.1f ms, p99 %.1f ms, non-201 answers %d\n",
    summary.requests / (summary.duration / 1e6), latency:percentile(50) / 1000,
    latency:percentile(99) / 1000, non201))
end
