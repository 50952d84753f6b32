package io.jdra.apiserver.protobuf;

/**
 * A protobuf body that cannot be read. The message is what Go's protobuf decoding says for the same
 * bytes; {@link #kind()} and {@link #version()} are the envelope's kind and version once the
 * envelope was read (null before), as kube-apiserver words the resulting 400 differently for each.
 */
public final class ProtobufException extends RuntimeException {
  private final String kind;
  private final String version;
  private final boolean unsupported;

  private ProtobufException(String message, String kind, String version, boolean unsupported) {
    super(message, null, false, false);
    this.kind = kind;
    this.version = version;
    this.unsupported = unsupported;
  }

  static ProtobufException envelope(String message) {
    return new ProtobufException(message, null, null, false);
  }

  static ProtobufException object(String message, String kind, String version) {
    return new ProtobufException(message, kind, version, false);
  }

  /** The kind is served but this server has no protobuf layout for it (read it as JSON). */
  static ProtobufException unsupported(String kind, String version) {
    return new ProtobufException(
        "no protobuf layout for " + kind + " in version \"" + version + "\"", kind, version, true);
  }

  /** The envelope's kind, or null when the envelope itself was malformed. */
  public String kind() {
    return kind;
  }

  /** The envelope's version (without group), or null when the envelope itself was malformed. */
  public String version() {
    return version;
  }

  /** Whether the body is well formed but of a kind this server cannot read as protobuf. */
  public boolean unsupported() {
    return unsupported;
  }
}
