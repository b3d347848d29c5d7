#if ENTITLEMENT_STATIC_EXECUTABLE
/// `dlopen` for the statically linked release build: loading a shared object always fails.
///
/// The only caller is the Swift runtime, and only with `SWIFT_DEBUG_ENABLE_LIB_PRESPECIALIZED`
/// and a library path set, to find a library already loaded (`RTLD_NOLOAD`), which a static
/// executable never has. Defining it here keeps glibc's static `dlopen` out of the link;
/// that one would need, at run time, the shared libraries of the exact glibc used to link
/// (the linker warns about it). libcrypto's loader of engine and provider modules calls it
/// too; the tool loads none (docs/security.md).
@_cdecl("dlopen")
public func staticExecutableDlopen(_ path: UnsafePointer<CChar>?, _ mode: Int32) -> UnsafeMutableRawPointer? {
    nil
}

/// `getaddrinfo` for the static build: name resolution always fails (`EAI_FAIL`).
///
/// libcrypto's socket code (BIO connections, used by its HTTP and OCSP clients) refers to
/// it; `entitlement` verifies offline and never opens a connection through libcrypto.
/// glibc's static copy would need the NSS shared libraries at run time (a link warning).
@_cdecl("getaddrinfo")
public func staticExecutableGetaddrinfo(_ node: UnsafePointer<CChar>?, _ service: UnsafePointer<CChar>?,
                                        _ hints: UnsafeRawPointer?, _ result: UnsafeMutablePointer<UnsafeMutableRawPointer?>?) -> Int32 {
    result?.pointee = nil
    return -4  // EAI_FAIL
}

/// `freeaddrinfo` for the static build: `getaddrinfo` above never allocates a list.
@_cdecl("freeaddrinfo")
public func staticExecutableFreeaddrinfo(_ list: UnsafeMutableRawPointer?) {}

/// `gethostbyname` for the static build: no host is ever found (see `getaddrinfo`).
@_cdecl("gethostbyname")
public func staticExecutableGethostbyname(_ name: UnsafePointer<CChar>?) -> UnsafeMutableRawPointer? {
    nil
}
#endif
