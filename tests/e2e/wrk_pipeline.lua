-- SPDX-License-Identifier: MIT
-- wrk script for the e2e tests: pipelines one fixed batch of requests per write (the batch is
-- written by e2e.py; its path is the first script argument) and checks every reply.
--
-- Each request's target states what the server's JSON echo must report for it:
--   /w/N?m=METHOD&f=FIELDS&l=BODY_LENGTH&h=FNV1A64
-- so a reply can be checked without knowing which request of the batch it answers.
-- Counters are globals so done() can read them from each thread with thread:get().

ok, bad = 0, 0
local threads = {}

function setup(thread)
   table.insert(threads, thread)
end

function init(args)
   local f = assert(io.open(args[1], "rb"))
   batch = f:read("*a")
   f:close()
end

function request()
   return batch
end

function response(status, headers, body)
   local m, t, f, l, h = body:match('^{"method":"([^"]*)","target":"([^"]*)".-"fields":(%d+)' ..
                                    '.-"body_length":(%d+),"body_fnv1a64":"(%x+)"')
   local em, ef, el, eh = (t or ""):match("m=(%u+)&f=(%d+)&l=(%d+)&h=(%x+)")
   if status == 200 and m ~= nil and em ~= nil and m == em and f == ef and l == el and h == eh then
      ok = ok + 1
   else
      bad = bad + 1
      if bad <= 3 then io.stderr:write("bad reply: ", status, " ", body, "\n") end
   end
end

function done(summary, latency, requests)
   local o, b = 0, 0
   for _, t in ipairs(threads) do
      o = o + t:get("ok")
      b = b + t:get("bad")
   end
   local e = summary.errors
   io.write(string.format("E2E ok=%d bad=%d connect=%d read=%d write=%d status=%d timeout=%d\n",
                          o, b, e.connect, e.read, e.write, e.status, e.timeout))
end
