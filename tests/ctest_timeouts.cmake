# Read by ctest after the discovered doctest cases (TEST_INCLUDE_FILES, tests/CMakeLists.txt), where
# <target>_TESTS lists each built binary's cases: time limits for single cases that spin threads, so a
# stalled or starved run fails instead of holding the suite for minutes.
foreach(name IN LISTS engine_tests_TESTS)
  if(name MATCHES "^triple buffer hammer")
    set_tests_properties("${name}" PROPERTIES TIMEOUT 60)
  endif()
endforeach()
