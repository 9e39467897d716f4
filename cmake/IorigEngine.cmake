# iorig_add_engine(NAME SOURCES... [LIBS libs...] [OUTPUT_DIR dir] [NO_INSTALL])
# Builds NAME.so against the SDK header only, exporting just the entry symbol.
function(iorig_add_engine name)
  cmake_parse_arguments(E "NO_INSTALL" "OUTPUT_DIR" "SOURCES;LIBS" ${ARGN})
  set(srcs ${E_SOURCES} ${E_UNPARSED_ARGUMENTS})
  add_library(${name} MODULE ${srcs})
  target_include_directories(${name} PRIVATE ${PROJECT_SOURCE_DIR}/sdk/include)
  set_target_properties(${name} PROPERTIES
    PREFIX ""
    C_VISIBILITY_PRESET hidden
    VISIBILITY_INLINES_HIDDEN ON)
  if(E_OUTPUT_DIR)
    set_target_properties(${name} PROPERTIES LIBRARY_OUTPUT_DIRECTORY ${E_OUTPUT_DIR})
  else()
    set_target_properties(${name} PROPERTIES LIBRARY_OUTPUT_DIRECTORY ${IORIG_BUILD_PLUGIN_DIR})
  endif()
  if(E_LIBS)
    target_link_libraries(${name} PRIVATE ${E_LIBS})
  endif()
  # Refuse undefined symbols at link time: a plugin links against its own
  # libraries, never against the core.
  target_link_options(${name} PRIVATE -Wl,--no-undefined)
  if(NOT E_NO_INSTALL)
    install(TARGETS ${name} LIBRARY DESTINATION ${CMAKE_INSTALL_LIBDIR}/iorig/engines)
  endif()
endfunction()
