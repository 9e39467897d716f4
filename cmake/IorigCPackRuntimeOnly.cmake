# CPack pre-build script (CPACK_PRE_BUILD_SCRIPTS), run on the staged files
# before the .debs are made.  The header's original install rule in the
# top-level CMakeLists.txt has no COMPONENT, so the header is staged in the
# runtime component ("Unspecified") as well as in "dev": drop the runtime
# copy, or iorig and iorig-dev would both own the file and could not be
# installed together.  Delete this script once that rule says COMPONENT dev.
set(runtime_include
  "${CPACK_TEMPORARY_INSTALL_DIRECTORY}/Unspecified${CPACK_PACKAGING_INSTALL_PREFIX}/${CPACK_IORIG_INCLUDEDIR}")
if(EXISTS "${runtime_include}/iorig")
  file(REMOVE_RECURSE "${runtime_include}/iorig")
  file(GLOB left "${runtime_include}/*")
  if(NOT left)
    file(REMOVE_RECURSE "${runtime_include}") # empty: no include dir in iorig.deb
  endif()
endif()
