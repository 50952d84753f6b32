package io.jdra.apiserver.storage;

/** Why a storage operation failed; the HTTP layer turns each into an upstream Status. */
public sealed class StorageException extends RuntimeException {
  StorageException(String message) {
    super(message, null, false, false);
  }

  /** The object does not exist. */
  public static final class NotFound extends StorageException {
    public NotFound(String key) {
      super("not found: " + key);
    }
  }

  /** An object with that name exists already. */
  public static final class AlreadyExists extends StorageException {
    public AlreadyExists(String key) {
      super("already exists: " + key);
    }
  }

  /** The object's resourceVersion is not the expected one. */
  public static final class Conflict extends StorageException {
    public Conflict(String key) {
      super("conflict: " + key);
    }
  }

  /** The requested resourceVersion was compacted away. */
  public static final class Gone extends StorageException {
    private final long requested;
    private final long oldest;

    public Gone(long requested, long oldest) {
      super("too old resource version: " + requested + " (" + oldest + ")");
      this.requested = requested;
      this.oldest = oldest;
    }

    public long requested() {
      return requested;
    }

    public long oldest() {
      return oldest;
    }
  }
}
