#if ENTITLEMENT_STATIC_EXECUTABLE
/// `dlopen` for the statically linked release build: loading a shared object always fails.
///
/// The only caller is the Swift runtime, and only with `SWIFT_DEBUG_ENABLE_LIB_PRESPECIALIZED`
/// and a library path set, to find a library already loaded (`RTLD_NOLOAD`), which a static
/// executable never has. Defining it here keeps glibc's static `dlopen` out of the link;
/// that one would need, at run time, the shared libraries of the exact glibc used to link
/// (the linker warns about it).
@_cdecl("dlopen")
public func staticExecutableDlopen(_ path: UnsafePointer<CChar>?, _ mode: Int32) -> UnsafeMutableRawPointer? {
    nil
}
#endif
