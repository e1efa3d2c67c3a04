# Installs the engine as a library: `cmake --install <build> --prefix <prefix>` writes
#   <prefix>/include/quadpool/engine/{core,memory,spatial}/...   the public headers, the detail/
#                                                                 headers they include, and the
#                                                                 generated engine/core/config.hpp
#   <prefix>/lib/libquadpool_{core,memory,spatial}.a
#   <prefix>/lib/cmake/quadpool/quadpool{Config,ConfigVersion,Targets}.cmake
#                                                                 find_package(quadpool) with the
#                                                                 targets quadpool::core, ::memory
#                                                                 and ::spatial
#   <prefix>/lib/pkgconfig/quadpool.pc                            pkg-config --cflags --libs quadpool
# The game's executable and assets are installed by game/CMakeLists.txt.
include(CMakePackageConfigHelpers)

set(QUADPOOL_INSTALL_CMAKEDIR ${CMAKE_INSTALL_LIBDIR}/cmake/quadpool)

# Headers keep the include paths of the source tree (engine/memory/object_pool.hpp) under
# include/quadpool/. The checked-in engine/core/config.hpp, the default for a copy compiled
# without CMake, is left out: the generated one below takes its place.
install(DIRECTORY engine/core engine/memory engine/spatial
        DESTINATION ${CMAKE_INSTALL_INCLUDEDIR}/quadpool/engine
        COMPONENT quadpool_development
        FILES_MATCHING PATTERN "*.hpp" REGEX "/engine/core/config\\.hpp$" EXCLUDE)
# The config header of the configuration being installed (cmake --install --config X picks it in
# a multi-config build): the asserts and memory checks the libraries were compiled with, which
# every translation unit that includes the engine must see as well.
install(FILES ${QUADPOOL_CONFIG_DIR}/engine/core/config.hpp
        DESTINATION ${CMAKE_INSTALL_INCLUDEDIR}/quadpool/engine/core
        COMPONENT quadpool_development)

install(TARGETS engine_core engine_memory engine_spatial EXPORT quadpoolTargets
        ARCHIVE DESTINATION ${CMAKE_INSTALL_LIBDIR} COMPONENT quadpool_development)
install(EXPORT quadpoolTargets NAMESPACE quadpool:: FILE quadpoolTargets.cmake
        DESTINATION ${QUADPOOL_INSTALL_CMAKEDIR} COMPONENT quadpool_development)

configure_package_config_file(cmake/quadpoolConfig.cmake.in
  ${PROJECT_BINARY_DIR}/quadpoolConfig.cmake INSTALL_DESTINATION ${QUADPOOL_INSTALL_CMAKEDIR})
# 0.x: a minor version may change the API, so find_package(quadpool 0.2) takes any 0.2.x only.
write_basic_package_version_file(${PROJECT_BINARY_DIR}/quadpoolConfigVersion.cmake
  COMPATIBILITY SameMinorVersion)
install(FILES ${PROJECT_BINARY_DIR}/quadpoolConfig.cmake
              ${PROJECT_BINARY_DIR}/quadpoolConfigVersion.cmake
        DESTINATION ${QUADPOOL_INSTALL_CMAKEDIR} COMPONENT quadpool_development)

# quadpool.pc finds its prefix from its own folder (${pcfiledir}), so an installed tree can be
# moved, and `cmake --install --prefix` needs no reconfigure.
if(IS_ABSOLUTE "${CMAKE_INSTALL_LIBDIR}" OR IS_ABSOLUTE "${CMAKE_INSTALL_INCLUDEDIR}")
  set(QUADPOOL_PC_PREFIX "${CMAKE_INSTALL_PREFIX}")
else()
  file(RELATIVE_PATH QUADPOOL_PC_TO_PREFIX /root/${CMAKE_INSTALL_LIBDIR}/pkgconfig /root)
  set(QUADPOOL_PC_PREFIX "\${pcfiledir}/${QUADPOOL_PC_TO_PREFIX}")
endif()
configure_file(cmake/quadpool.pc.in ${PROJECT_BINARY_DIR}/quadpool.pc @ONLY)
install(FILES ${PROJECT_BINARY_DIR}/quadpool.pc DESTINATION ${CMAKE_INSTALL_LIBDIR}/pkgconfig
        COMPONENT quadpool_development)
