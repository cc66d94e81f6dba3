# topocoll-plan --algorithm auto: the choice and every prediction in JSON, from a calibration
# written here (two clusters whose slow backbone collapses under many flows: lg) and from the
# shipped calibrations (they must load); clear errors without or with a broken calibration.
set(calibration "${WORK}/plan_auto_check.calibration.json")
file(WRITE "${calibration}" [=[
{"format": "topocoll-calibration 1", "platform": "test", "topology": "clusters:30,30", "ranks": 60,
 "levels": [{"name": "cluster", "ranks": [0, 30], "latency_us": 5060, "bandwidth_bytes_per_s": 1.25e8},
            {"name": "node", "ranks": [0, 1], "latency_us": 50, "bandwidth_bytes_per_s": 1.25e8}],
 "send_overhead_us": 0,
 "node": {"flows": 8, "injection_bytes_per_s": 1.25e8, "ejection_bytes_per_s": 1.25e8},
 "backbone": {"level": "cluster", "groups": [0, 1],
              "one_direction": [{"flows": 30, "bytes_per_s": 1.25e8}, {"flows": 900, "bytes_per_s": 1.25e7}],
              "both_directions": {"flows": 1800, "bytes_per_s": 2.5e7}},
 "copy": {"bytes_per_s": 5e9, "source": "given"}}
]=])
execute_process(COMMAND ${PLAN} --algorithm auto --calibration ${calibration} --topology clusters:30,30
                        --block-bytes 65536 --format json
                OUTPUT_VARIABLE out ERROR_VARIABLE err RESULT_VARIABLE rc)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "topocoll-plan --algorithm auto failed (${rc}): ${err}")
endif()
string(JSON algorithm GET "${out}" algorithm)
string(JSON chosen GET "${out}" auto chosen)
string(JSON count LENGTH "${out}" auto predictions)
string(JSON rounds GET "${out}" rounds)
if(NOT chosen STREQUAL "lg" OR NOT algorithm STREQUAL "lg" OR NOT rounds EQUAL 2 OR count LESS 6)
  message(FATAL_ERROR "expected lg (2 rounds) with every prediction, got: ${out}")
endif()

foreach(platform crossbar-16 two-clusters-30-30 two-clusters-20-40 ib-switch-tree ib-switch-tree-overhead-1us)
  set(shipped "${SOURCE}/platforms/${platform}.calibration.json")
  if(EXISTS "${shipped}")
    execute_process(COMMAND ${PLAN} -a auto -c ${shipped} -t flat:16 -b 1024 -f json
                    OUTPUT_VARIABLE out ERROR_VARIABLE err RESULT_VARIABLE rc)
    if(NOT rc EQUAL 0)
      message(FATAL_ERROR "the shipped ${platform}.calibration.json does not load: ${err}")
    endif()
  endif()
endforeach()

execute_process(COMMAND ${PLAN} --algorithm auto --topology flat:4 RESULT_VARIABLE rc ERROR_VARIABLE err)
if(rc EQUAL 0 OR NOT err MATCHES "needs --calibration")
  message(FATAL_ERROR "auto without a calibration must fail clearly, got rc=${rc}: ${err}")
endif()
file(WRITE "${calibration}" "{\"format\": \"topocoll-calibration 1\", \"levels\": []}")
execute_process(COMMAND ${PLAN} -a auto -c ${calibration} -t flat:4 RESULT_VARIABLE rc ERROR_VARIABLE err)
if(rc EQUAL 0 OR NOT err MATCHES "plan_auto_check.calibration.json': ranks is missing")
  message(FATAL_ERROR "a broken calibration must name the file and the field, got rc=${rc}: ${err}")
endif()
