package io.jdra.apiserver.storage;

import java.io.IOException;
import java.nio.file.Path;

/**
 * A storage file is damaged other than by a torn last write: loading what precedes the damage would
 * silently lose acknowledged writes (or resurrect deleted objects), so the server does not start.
 * The message names the file, the offset and the ways to recover.
 */
public final class CorruptStorageException extends IOException {
  private static final long serialVersionUID = 1L;

  private final transient Path file;
  private final long offset;

  CorruptStorageException(Path file, long offset, String why, boolean snapshot) {
    super(message(file, offset, why, snapshot));
    this.file = file;
    this.offset = offset;
  }

  static CorruptStorageException segment(Path file, long offset, String why) {
    return new CorruptStorageException(file, offset, why, false);
  }

  static CorruptStorageException snapshot(Path file, long offset, String why) {
    return new CorruptStorageException(file, offset, why, true);
  }

  private static String message(Path file, long offset, String why, boolean snapshot) {
    String head = "storage file " + file + " is corrupt at offset " + offset + ": " + why + ". ";
    if (snapshot) {
      return head
          + "The snapshot holds every object, so none can be trusted. To recover, restore the"
          + " storage directory "
          + file.getParent()
          + " from a backup, or move it aside to start with an empty cluster.";
    }
    return head
        + "Writes after this point would be lost, so the server does not start. To recover,"
        + " restore the storage directory "
        + file.getParent()
        + " from a backup; or, accepting the loss of every write from this offset on, truncate"
        + " the file (truncate -s "
        + offset
        + " "
        + file
        + ") and move the log-*.dat files numbered after it aside.";
  }

  /** The damaged file. */
  public Path file() {
    return file;
  }

  /** Where in the file the damage starts. */
  public long offset() {
    return offset;
  }
}
