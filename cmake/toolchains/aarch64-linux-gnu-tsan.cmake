# The aarch64 cross toolchain, with tests run through ci/qemu-aarch64-tsan
# (setarch -R + qemu-aarch64-static): what ThreadSanitizer binaries need under
# qemu-user. Used by the arm64-tsan preset; -fsanitize=thread comes from it.
include("${CMAKE_CURRENT_LIST_DIR}/aarch64-linux-gnu.cmake")
get_filename_component(_rq_tsan_emu "${CMAKE_CURRENT_LIST_DIR}/../../ci/qemu-aarch64-tsan" ABSOLUTE)
set(CMAKE_CROSSCOMPILING_EMULATOR "${_rq_tsan_emu}")
