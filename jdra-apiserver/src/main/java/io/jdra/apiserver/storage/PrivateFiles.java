package io.jdra.apiserver.storage;

import java.io.IOException;
import java.nio.file.FileSystems;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileAttribute;
import java.nio.file.attribute.PosixFilePermission;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.Set;

/**
 * Files only the server's user may read: stored objects (Secrets among them), keys and tokens are
 * created 0600 in 0700 directories, as etcd keeps its data directory, never readable by others even
 * for a moment. On file systems without POSIX permissions the attributes are left out. Stateless.
 */
public final class PrivateFiles {
  private static final boolean POSIX =
      FileSystems.getDefault().supportedFileAttributeViews().contains("posix");
  private static final Set<PosixFilePermission> FILE = PosixFilePermissions.fromString("rw-------");
  private static final Set<PosixFilePermission> DIR = PosixFilePermissions.fromString("rwx------");

  private PrivateFiles() {}

  /** Attributes for creating a file readable and writable by its owner only. */
  public static FileAttribute<?>[] fileAttributes() {
    return POSIX
        ? new FileAttribute<?>[] {PosixFilePermissions.asFileAttribute(FILE)}
        : new FileAttribute<?>[0];
  }

  /**
   * Creates {@code dir} and its missing parents as 0700 directories, and makes {@code dir} itself
   * 0700 when it already exists.
   */
  public static Path createDirectories(Path dir) throws IOException {
    if (!POSIX) {
      return Files.createDirectories(dir);
    }
    Path abs = dir.toAbsolutePath();
    if (!Files.isDirectory(abs)) {
      Path parent = abs.getParent();
      if (parent != null && !Files.isDirectory(parent)) {
        createDirectories(parent);
      }
      Files.createDirectory(abs, PosixFilePermissions.asFileAttribute(DIR));
    }
    Files.setPosixFilePermissions(abs, DIR);
    return dir;
  }

  /** Makes an existing file owner-only (for files another program created). */
  public static void restrict(Path file) throws IOException {
    if (POSIX) {
      Files.setPosixFilePermissions(file, FILE);
    }
  }
}
