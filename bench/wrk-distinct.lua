-- wrk script for bench/load-run.mjs: every request asks for `path?bench=N`, a route-cache key of its own,
-- so each one is a full render. The random prefix keeps wrk's threads (and runs) from sharing keys.
local prefix = math.random(1, 1e9)
local n = 0
request = function()
  n = n + 1
  return wrk.format("GET", wrk.path .. "?bench=" .. prefix .. "-" .. n)
end
