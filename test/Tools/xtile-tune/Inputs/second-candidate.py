"""Writes a schedule spec giving the first kernel of a candidate list
(xtile-opt --xtile-list-schedules) its second-cheapest candidate, and prints
that candidate."""
import json
import sys

listed = json.load(open(sys.argv[1]))
kernel = listed["kernels"][0]
second = kernel["candidates"][1]["schedule"]
json.dump({"format": "xtile-schedule-spec", "compiler": listed["compiler"],
           "schedules": [{"kernel": kernel["identity"], "target": "sm_90",
                          "schedule": second}]}, open(sys.argv[2], "w"))
print("KERNEL", kernel["kernel"], "SECOND", second)
