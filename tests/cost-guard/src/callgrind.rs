//! Callgrind's client requests (`valgrind/callgrind.h`): under callgrind they switch its
//! instrumentation on and off for every thread; run natively they are a few no-op
//! instructions. Only x86-64 has them here; elsewhere they do nothing.

/// `VG_USERREQ_TOOL_BASE('C','T')`: callgrind's first request code.
const BASE: u64 = ((b'C' as u64) << 24) | ((b'T' as u64) << 16);
/// `VG_USERREQ__START_INSTRUMENTATION`.
const START_INSTRUMENTATION: u64 = BASE + 4;
/// `VG_USERREQ__STOP_INSTRUMENTATION`.
const STOP_INSTRUMENTATION: u64 = BASE + 5;

/// Counts every instruction from here on (the program runs with `--instr-atstart=no`).
pub fn start() {
    request(START_INSTRUMENTATION);
}

/// Stops counting.
pub fn stop() {
    request(STOP_INSTRUMENTATION);
}

/// valgrind.h's `VALGRIND_DO_CLIENT_REQUEST_EXPR` for amd64: the "special instruction"
/// preamble (four rotations of `rdi` by 128 bits in all, so a no-op natively) and
/// `xchg rbx, rbx`, with `rax` pointing at the request and its five arguments.
#[cfg(target_arch = "x86_64")]
fn request(code: u64) {
    let arguments: [u64; 6] = [code, 0, 0, 0, 0, 0];
    // SAFETY: the sequence reads the six words behind `rax` and leaves every register as it
    // found it but `rdx` (the answer, unused) and the flags; natively it only rotates `rdi`
    // back to itself.
    unsafe {
        std::arch::asm!(
            "rol rdi, 3",
            "rol rdi, 13",
            "rol rdi, 61",
            "rol rdi, 51",
            "xchg rbx, rbx",
            in("rax") arguments.as_ptr(),
            inout("rdx") 0u64 => _,
            out("rdi") _,
            options(nostack),
        );
    }
}

#[cfg(not(target_arch = "x86_64"))]
fn request(_code: u64) {}
