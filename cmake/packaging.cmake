# Installation (real-MPI flavours): `cmake --install build/mpi --prefix DIR` puts under DIR
#   include/topocoll/          the C and C++ headers
#   lib/libtopocoll.so         the library for programs that call topocoll (C or C++)
#   lib/libtopocoll-pmpi.so    the drop-in library for unmodified programs (LD_PRELOAD)
#   lib/cmake/topocoll/        find_package(topocoll): targets topocoll::topocoll, topocoll::pmpi
#   lib/pkgconfig/topocoll.pc  pkg-config topocoll
#   bin/                       topocoll-plan, topocoll-bench (and topocoll-topo, topocoll-platform)
#   share/doc/topocoll/        README.md and docs/*.md
# (lib is lib/<multiarch> under /usr, as GNUInstallDirs says.) The installed library is
# shared, so that C programs need neither the C++ runtime's flags nor topocoll's internal
# archives; the static archives stay in the build tree for the tests, the tools and SMPI.
include(GNUInstallDirs)
include(CMakePackageConfigHelpers)

# libtopocoll.so: the executor's objects (the archive is built PIC for this) and the core.
add_library(topocoll_shared SHARED $<TARGET_OBJECTS:topocoll>)
target_link_libraries(topocoll_shared PRIVATE topocoll_core topocoll_mpi PUBLIC MPI::MPI_C)
target_include_directories(topocoll_shared INTERFACE $<BUILD_INTERFACE:${PROJECT_SOURCE_DIR}/include>
                                                     $<INSTALL_INTERFACE:${CMAKE_INSTALL_INCLUDEDIR}>)
# topocoll's headers use MPI's C API only: spare C++ programs the deprecated MPI C++ bindings
# (Open MPI's mpi.h pulls them in by default, and with them a link dependency on libmpi_cxx).
target_compile_definitions(topocoll_shared INTERFACE OMPI_SKIP_MPICXX=1 MPICH_SKIP_MPICXX=1)
set(TOPOCOLL_SHARED_EXPORTS ${CMAKE_CURRENT_LIST_DIR}/topocoll.map)
target_link_options(topocoll_shared PRIVATE -Wl,--version-script=${TOPOCOLL_SHARED_EXPORTS} -Wl,--no-undefined)
set_target_properties(topocoll_shared PROPERTIES
  OUTPUT_NAME topocoll EXPORT_NAME topocoll
  VERSION ${PROJECT_VERSION} SOVERSION ${PROJECT_VERSION_MAJOR}
  LINK_DEPENDS ${TOPOCOLL_SHARED_EXPORTS})
set_target_properties(topocoll-pmpi PROPERTIES EXPORT_NAME pmpi)

install(TARGETS topocoll_shared topocoll-pmpi EXPORT topocollTargets
        LIBRARY DESTINATION ${CMAKE_INSTALL_LIBDIR})
install(DIRECTORY include/topocoll DESTINATION ${CMAKE_INSTALL_INCLUDEDIR})
foreach(tool IN ITEMS topocoll-plan topocoll-bench topocoll-topo topocoll-platform)
  if(TARGET ${tool})
    install(TARGETS ${tool} RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR})
  endif()
endforeach()
file(GLOB TOPOCOLL_DOCS CONFIGURE_DEPENDS docs/*.md)
install(FILES README.md ${TOPOCOLL_DOCS} DESTINATION ${CMAKE_INSTALL_DOCDIR})

# find_package(topocoll)
set(TOPOCOLL_CMAKE_DIR ${CMAKE_INSTALL_LIBDIR}/cmake/topocoll)
install(EXPORT topocollTargets NAMESPACE topocoll:: DESTINATION ${TOPOCOLL_CMAKE_DIR})
configure_package_config_file(cmake/topocollConfig.cmake.in ${PROJECT_BINARY_DIR}/topocollConfig.cmake
                              INSTALL_DESTINATION ${TOPOCOLL_CMAKE_DIR})
# 0.x: a new minor version may change the API.
write_basic_package_version_file(${PROJECT_BINARY_DIR}/topocollConfigVersion.cmake COMPATIBILITY SameMinorVersion)
install(FILES ${PROJECT_BINARY_DIR}/topocollConfig.cmake ${PROJECT_BINARY_DIR}/topocollConfigVersion.cmake
        DESTINATION ${TOPOCOLL_CMAKE_DIR})

# pkg-config: the prefix is found from the .pc file's own place, so the tree can be moved.
if(IS_ABSOLUTE "${CMAKE_INSTALL_LIBDIR}" OR IS_ABSOLUTE "${CMAKE_INSTALL_INCLUDEDIR}")
  message(FATAL_ERROR "topocoll.pc needs CMAKE_INSTALL_LIBDIR and CMAKE_INSTALL_INCLUDEDIR relative to the prefix")
endif()
file(RELATIVE_PATH TOPOCOLL_PC_PREFIX_FROM_PCFILEDIR /prefix/${CMAKE_INSTALL_LIBDIR}/pkgconfig /prefix)
string(REGEX REPLACE "/$" "" TOPOCOLL_PC_PREFIX_FROM_PCFILEDIR "${TOPOCOLL_PC_PREFIX_FROM_PCFILEDIR}")
# MPI's own pkg-config module, told from the mpi.h topocoll was compiled with.
file(STRINGS "${MPI_C_HEADER_DIR}/mpi.h" TOPOCOLL_MPI_IDENTITY REGEX "define (OMPI_MAJOR_VERSION|MPICH_VERSION) ")
if(TOPOCOLL_MPI_IDENTITY MATCHES "OMPI_MAJOR_VERSION")
  set(TOPOCOLL_PC_MPI_MODULE ompi-c)
elseif(TOPOCOLL_MPI_IDENTITY MATCHES "MPICH_VERSION")
  set(TOPOCOLL_PC_MPI_MODULE mpich)
else()
  set(TOPOCOLL_PC_MPI_MODULE "")  # another MPI: compile with its mpicc
endif()
configure_file(cmake/topocoll.pc.in ${PROJECT_BINARY_DIR}/topocoll.pc @ONLY)
install(FILES ${PROJECT_BINARY_DIR}/topocoll.pc DESTINATION ${CMAKE_INSTALL_LIBDIR}/pkgconfig)
