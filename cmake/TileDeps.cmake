# Header-only dependencies found the same way by the full build and by the
# runner-only build of the GPU machine, which has no package access: there
# the headers are carried in .deps/include (scripts/carry-deps.sh copies
# them from a machine where the packages are installed; docs/bundle.md).

find_path(TILE_NLOHMANN_JSON_INCLUDE_DIR nlohmann/json.hpp
  HINTS ${PROJECT_SOURCE_DIR}/.deps/include
  DOC "Folder holding nlohmann/json.hpp (nlohmann-json3-dev)")
if(NOT TILE_NLOHMANN_JSON_INCLUDE_DIR)
  message(FATAL_ERROR
    "nlohmann/json.hpp not found. Install nlohmann-json3-dev "
    "(scripts/install-deps.sh), or, on a machine without package access, "
    "run scripts/carry-deps.sh where it is installed and carry the .deps "
    "folder (see docs/bundle.md), or set TILE_NLOHMANN_JSON_INCLUDE_DIR.")
endif()
message(STATUS "nlohmann-json: ${TILE_NLOHMANN_JSON_INCLUDE_DIR}")

# googletest, for the unit tests (unittests/); optional.
find_package(GTest QUIET)
if(GTest_FOUND)
  message(STATUS "googletest found: unit tests on")
else()
  message(STATUS "googletest not found: no unit tests (libgtest-dev)")
endif()
