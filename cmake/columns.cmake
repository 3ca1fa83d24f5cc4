# columns.cmake — the verdict's columns, read from their one declaration,
# ci/checkers.json. Every test that judges a subject (label `port`) gets the
# label `column:<id>` of the column whose `tests` name it (or of its preset's
# whole_preset column, unless its own column lists that preset), and
# <build>/runqcheck_columns.json records the same (preset, subjects, each
# one's header and include dirs, test -> column) for ci/verdict.py: nothing
# guesses a column from a test's name. Tests are labelled at the end of each
# directory that registers a subject (where its tests are).
include_guard(GLOBAL)

# RUNQCHECK_PRESET: the configure preset (CMakePresets.json sets it); `build`
# for a tree configured by hand (a user's own project).
set(RUNQCHECK_PRESET "build" CACHE STRING "the preset this tree was configured with")

# <out>: the strings of list <key> of column <i> (empty if it has none).
function(_runqcheck_column_list json i key out)
  set(items)
  string(JSON n ERROR_VARIABLE none LENGTH "${json}" columns ${i} ${key})
  if(n GREATER 0)
    math(EXPR last "${n} - 1")
    foreach(j RANGE ${last})
      string(JSON item GET "${json}" columns ${i} ${key} ${j})
      list(APPEND items "${item}")
    endforeach()
  endif()
  set(${out} "${items}" PARENT_SCOPE)
endfunction()

function(_runqcheck_columns_read)
  set(decl "${RUNQCHECK_ROOT}/ci/checkers.json")
  file(READ "${decl}" json)
  set_property(DIRECTORY "${CMAKE_SOURCE_DIR}" APPEND PROPERTY CMAKE_CONFIGURE_DEPENDS "${decl}")
  string(JSON n LENGTH "${json}" columns)
  math(EXPR last "${n} - 1")
  foreach(i RANGE ${last})
    string(JSON id GET "${json}" columns ${i} id)
    string(JSON whole ERROR_VARIABLE none GET "${json}" columns ${i} whole_preset)
    _runqcheck_column_list("${json}" ${i} presets presets)
    _runqcheck_column_list("${json}" ${i} tests tests)
    foreach(p IN LISTS presets)
      if(whole STREQUAL "ON")
        set_property(GLOBAL PROPERTY RUNQCHECK_PRESET_COLUMN_${p} ${id})
      endif()
    endforeach()
    foreach(t IN LISTS tests)
      set_property(GLOBAL PROPERTY RUNQCHECK_TEST_COLUMN_${t} ${id})
      set_property(GLOBAL PROPERTY RUNQCHECK_TEST_COLUMN_PRESETS_${t} "${presets}")
    endforeach()
  endforeach()
endfunction()
_runqcheck_columns_read()

# At the end of the calling directory: label its port tests, rewrite the table.
function(runqcheck_columns_defer)
  get_property(done DIRECTORY PROPERTY RUNQCHECK_COLUMNS_DEFERRED)
  if(NOT done)
    set_property(DIRECTORY PROPERTY RUNQCHECK_COLUMNS_DEFERRED TRUE)
    cmake_language(DEFER CALL _runqcheck_columns_label)
  endif()
endfunction()

function(_runqcheck_columns_label)
  get_property(whole GLOBAL PROPERTY RUNQCHECK_PRESET_COLUMN_${RUNQCHECK_PRESET})
  get_property(tests DIRECTORY PROPERTY TESTS)
  foreach(t IN LISTS tests)
    get_test_property(${t} LABELS labels)
    if(NOT "port" IN_LIST labels)
      continue()
    endif()
    string(REGEX REPLACE "/.*" "" head "${t}")
    get_property(col GLOBAL PROPERTY RUNQCHECK_TEST_COLUMN_${head})
    # A whole preset's column takes its port tests, unless the test's own
    # column names this preset (stress_protocol on tsan).
    get_property(own GLOBAL PROPERTY RUNQCHECK_TEST_COLUMN_PRESETS_${head})
    if(whole AND NOT (col AND RUNQCHECK_PRESET IN_LIST own))
      set(col ${whole})
    endif()
    if(col)
      set_property(TEST ${t} APPEND PROPERTY LABELS column:${col})
      set_property(GLOBAL APPEND PROPERTY RUNQCHECK_COLUMN_ROWS "    \"${t}\": \"${col}\"")
    endif()
  endforeach()
  get_property(rows GLOBAL PROPERTY RUNQCHECK_COLUMN_ROWS)
  list(JOIN rows ",\n" rows)
  get_property(subjects GLOBAL PROPERTY RUNQCHECK_SUBJECTS)
  set(names)
  set(ports)
  foreach(s IN LISTS subjects)
    get_property(no_tests GLOBAL PROPERTY RUNQCHECK_SUBJECT_${s}_NO_TESTS)
    if(NOT no_tests)
      list(APPEND names "\"${s}\"")
      # Where the port's own files are (ci/verdict.py's SARIF locations).
      get_property(h GLOBAL PROPERTY RUNQCHECK_SUBJECT_${s}_HEADER)
      get_property(incs GLOBAL PROPERTY RUNQCHECK_SUBJECT_${s}_INCLUDE_DIRS)
      list(TRANSFORM incs REPLACE "(.+)" "\"\\1\"")
      list(JOIN incs ", " incs)
      list(APPEND ports "    \"${s}\": {\"header\": \"${h}\", \"include_dirs\": [${incs}]}")
    endif()
  endforeach()
  get_property(psubjects GLOBAL PROPERTY RUNQCHECK_PROTOCOL_SUBJECTS)
  set(pnames)
  foreach(s IN LISTS psubjects)
    list(APPEND pnames "\"${s}\"")
  endforeach()
  list(APPEND names ${pnames})
  list(JOIN names ", " names)
  list(JOIN ports ",
" ports)
  list(JOIN pnames ", " pnames)
  # What runs this tree's binaries (qemu for a cross build): the verdict's reproduce lines.
  set(emu "${CMAKE_CROSSCOMPILING_EMULATOR}")
  list(TRANSFORM emu REPLACE "(.+)" "\"\\1\"")
  list(JOIN emu ", " emu)
  string(CONCAT text "{\"about\": \"written by cmake/columns.cmake from ci/checkers.json\",
"
    "  \"preset\": \"${RUNQCHECK_PRESET}\",
  \"emulator\": [${emu}],
  \"subjects\": [${names}],
"
    "  \"protocol_subjects\": [${pnames}],
"
    "  \"ports\": {
${ports}
  },
"
    "  \"tests\": {\n${rows}\n  }\n}\n")
  file(CONFIGURE OUTPUT "${CMAKE_BINARY_DIR}/runqcheck_columns.json" CONTENT "${text}" @ONLY)
endfunction()
