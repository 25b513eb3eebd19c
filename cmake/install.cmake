# Install rules, the exported CMake package (find_package(ssdlab)) and the
# Debian package (cpack -G DEB). Included last by the top CMakeLists.txt, so
# that it sees every library target.
include(GNUInstallDirs)
include(CMakePackageConfigHelpers)

# The libraries an out-of-tree FTL links, and the name each is exported as.
set(SSDLAB_EXPORTED_LIBRARIES ssdlab_common ssdlab_records ssdlab_flash ssdlab_ftl ssdlab_workloads
    ssdlab_traces ssdlab_results ssdlab_config ssdlab_sim ssdlab_analysis ssdlab_commands
    ssdlab_repro ssdlab_cli_commands)
foreach(library IN LISTS SSDLAB_EXPORTED_LIBRARIES)
  string(REPLACE "ssdlab_" "" short ${library})
  set_target_properties(${library} PROPERTIES EXPORT_NAME ${short})
  # Headers are included from the source root ("ftl/ftl.h"); installed, from
  # include/ssdlab.
  get_target_property(includes ${library} INTERFACE_INCLUDE_DIRECTORIES)
  if(includes)
    list(TRANSFORM includes REPLACE "^${PROJECT_SOURCE_DIR}$" "$<BUILD_INTERFACE:${PROJECT_SOURCE_DIR}>")
    set_target_properties(${library} PROPERTIES INTERFACE_INCLUDE_DIRECTORIES "${includes}")
  endif()
endforeach()
target_include_directories(ssdlab_common INTERFACE
  $<INSTALL_INTERFACE:${CMAKE_INSTALL_INCLUDEDIR}/ssdlab>)

# ssdlab::cli: the command line as a library, main() included, so that an
# executable of its own (ssdlab plus an out-of-tree FTL) needs no main.
add_library(ssdlab_cli STATIC ${PROJECT_SOURCE_DIR}/sim/cli/main.cpp)
target_link_libraries(ssdlab_cli PUBLIC ssdlab_cli_commands)
target_compile_definitions(ssdlab_cli PRIVATE SSDLAB_VERSION="${PROJECT_VERSION}")
set_target_properties(ssdlab_cli PROPERTIES EXPORT_NAME cli)

# Everything installed is built by the full build; the README's quick start
# builds only the binary (--target ssdlab). Said once, before any file is
# copied, instead of CMake's "cannot find" on the first missing one (the
# personas review).
install(CODE "
  foreach(built \"$<TARGET_FILE:ssdlab_cli>\" \"${CMAKE_CURRENT_BINARY_DIR}/ssdlab-completion.bash\")
    if(NOT EXISTS \"\${built}\")
      message(FATAL_ERROR \"ssdlab: \${built} is not built: install copies what the full build makes; run 'cmake --build ${CMAKE_BINARY_DIR}' (every target, not only --target ssdlab) first\")
    endif()
  endforeach()
")
install(TARGETS ssdlab RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR})
install(TARGETS ${SSDLAB_EXPORTED_LIBRARIES} ssdlab_cli EXPORT ssdlabTargets
  ARCHIVE DESTINATION ${CMAKE_INSTALL_LIBDIR}
  INCLUDES DESTINATION ${CMAKE_INSTALL_INCLUDEDIR}/ssdlab)
foreach(folder common records flash ftl sim analysis workloads traces repro)
  install(DIRECTORY ${folder}/ DESTINATION ${CMAKE_INSTALL_INCLUDEDIR}/ssdlab/${folder}
    FILES_MATCHING PATTERN "*.h")
endforeach()
install(EXPORT ssdlabTargets NAMESPACE ssdlab::
  DESTINATION ${CMAKE_INSTALL_LIBDIR}/cmake/ssdlab)
configure_package_config_file(cmake/ssdlabConfig.cmake.in
  ${CMAKE_CURRENT_BINARY_DIR}/ssdlabConfig.cmake
  INSTALL_DESTINATION ${CMAKE_INSTALL_LIBDIR}/cmake/ssdlab)
write_basic_package_version_file(${CMAKE_CURRENT_BINARY_DIR}/ssdlabConfigVersion.cmake
  COMPATIBILITY SameMinorVersion)
install(FILES ${CMAKE_CURRENT_BINARY_DIR}/ssdlabConfig.cmake
  ${CMAKE_CURRENT_BINARY_DIR}/ssdlabConfigVersion.cmake
  DESTINATION ${CMAKE_INSTALL_LIBDIR}/cmake/ssdlab)

# Data: presets, example plans and traces, the plotting script and the Python
# package it belongs to, the man page, the docs and the licence.
install(DIRECTORY configs/ DESTINATION ${CMAKE_INSTALL_DATADIR}/ssdlab/configs)
install(DIRECTORY workloads/plans/ DESTINATION ${CMAKE_INSTALL_DATADIR}/ssdlab/plans)
install(DIRECTORY traces/examples/ DESTINATION ${CMAKE_INSTALL_DATADIR}/ssdlab/traces)
install(FILES python/ssdlab/plot.py DESTINATION ${CMAKE_INSTALL_DATADIR}/ssdlab
  RENAME ssdlab_plot.py)
install(DIRECTORY python/ DESTINATION ${CMAKE_INSTALL_DATADIR}/ssdlab/python
  PATTERN "__pycache__" EXCLUDE PATTERN "*.egg-info" EXCLUDE PATTERN "build" EXCLUDE)
install(FILES docs/ssdlab.1 DESTINATION ${CMAKE_INSTALL_MANDIR}/man1)
install(DIRECTORY docs/ DESTINATION ${CMAKE_INSTALL_DOCDIR} PATTERN "ssdlab.1" EXCLUDE)
install(FILES LICENSE README.md DESTINATION ${CMAKE_INSTALL_DOCDIR})

# Debian package: cpack -G DEB in the build folder.
set(CPACK_PACKAGE_NAME ssdlab)
set(CPACK_PACKAGE_VENDOR "the ssdlab authors")
set(CPACK_PACKAGE_CONTACT "the ssdlab authors <ssdlab@localhost>")
set(CPACK_PACKAGE_DESCRIPTION_SUMMARY "trace-driven SSD simulator with pluggable FTLs")
set(CPACK_PACKAGE_DESCRIPTION
  "ssdlab simulates SSDs (flash channels, dies, planes, FTLs, cleaning, wear leveling) under uFLIP micro-benchmarks and block traces, and runs the same workloads on real devices.")
set(CPACK_RESOURCE_FILE_LICENSE ${PROJECT_SOURCE_DIR}/LICENSE)
set(CPACK_GENERATOR DEB)
set(CPACK_PACKAGING_INSTALL_PREFIX /usr)
set(CPACK_DEBIAN_FILE_NAME DEB-DEFAULT)
set(CPACK_DEBIAN_PACKAGE_SECTION science)
set(CPACK_DEBIAN_PACKAGE_SHLIBDEPS ON)
set(CPACK_DEBIAN_PACKAGE_DEPENDS "python3")
set(CPACK_DEBIAN_PACKAGE_RECOMMENDS "python3-matplotlib, python3-pandas")
include(CPack)

# Bash completion, generated from the command table by the binary itself
# (`ssdlab completion bash`), so that it names exactly the options built in.
set(SSDLAB_COMPLETION ${CMAKE_CURRENT_BINARY_DIR}/ssdlab-completion.bash)
add_custom_command(OUTPUT ${SSDLAB_COMPLETION}
  COMMAND sh -c "\"$1\" completion bash > \"$2\"" sh $<TARGET_FILE:ssdlab> ${SSDLAB_COMPLETION}
  DEPENDS ssdlab
  COMMENT "Generating the bash completion of ssdlab"
  VERBATIM)
add_custom_target(ssdlab_completion ALL DEPENDS ${SSDLAB_COMPLETION})
install(FILES ${SSDLAB_COMPLETION} DESTINATION ${CMAKE_INSTALL_DATADIR}/bash-completion/completions
  RENAME ssdlab)
