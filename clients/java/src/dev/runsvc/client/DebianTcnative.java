package dev.runsvc.client;

import java.io.File;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * Makes Debian's netty-tcnative loadable before a TLS channel needs it.
 *
 * <p>grpc-netty negotiates HTTP/2 with ALPN, which Debian 12's netty-handler offers only through
 * OpenSSL (netty-tcnative: its JDK ALPN classes are left out). Debian installs the library as
 * {@code libnetty-tcnative.so}, a name netty 4.1.48 neither looks for nor accepts, so this loads a
 * copy named {@code libnetty_tcnative.so}; netty then finds it loaded and uses OpenSSL. It does
 * nothing when netty-tcnative's classes are not Debian's (another build loads its own library).
 */
final class DebianTcnative {
  private static boolean tried;

  private DebianTcnative() {}

  /** Loads the library once; a failure leaves netty to report why TLS has no ALPN. */
  static synchronized void load() {
    if (tried) {
      return;
    }
    tried = true;
    if (!debianClasses()) {
      return;
    }
    for (String dir : System.getProperty("java.library.path", "").split(File.pathSeparator)) {
      Path so = Path.of(dir, "libnetty-tcnative.so");
      if (!dir.isEmpty() && Files.isRegularFile(so)) {
        loadCopy(so);
        return;
      }
    }
  }

  private static boolean debianClasses() {
    try {
      Class<?> ssl = Class.forName("io.netty.internal.tcnative.SSL", false, DebianTcnative.class.getClassLoader());
      return ssl.getProtectionDomain().getCodeSource().getLocation().getPath().startsWith("/usr/share/java/");
    } catch (ClassNotFoundException | SecurityException | NullPointerException e) {
      return false;
    }
  }

  private static void loadCopy(Path so) {
    try {
      Path dir = Files.createTempDirectory("runsvc-tcnative");
      Path copy = dir.resolve("libnetty_tcnative.so");
      try {
        Files.copy(so, copy);
        System.load(copy.toString());
      } finally {
        Files.deleteIfExists(copy);
        Files.deleteIfExists(dir);
      }
    } catch (IOException | UnsatisfiedLinkError e) {
      // netty falls back to the JDK provider and says it has no ALPN.
    }
  }
}
