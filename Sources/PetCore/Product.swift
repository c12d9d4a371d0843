/// The release this build is: the one place its version is written (`petprogressd --version`,
/// `petctl --version`, `GetStatus`, and the Makefile's package and tarball names read it).
public enum Product {
    public static let version = "0.1.0"
}
