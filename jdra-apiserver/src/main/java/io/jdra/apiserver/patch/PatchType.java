package io.jdra.apiserver.patch;

import java.util.Locale;
import java.util.Optional;

/** The patch content types kube-apiserver accepts, named as upstream's {@code types.PatchType}. */
public enum PatchType {
  JSON_PATCH("application/json-patch+json"),
  MERGE_PATCH("application/merge-patch+json"),
  STRATEGIC_MERGE_PATCH("application/strategic-merge-patch+json"),
  APPLY_PATCH_YAML("application/apply-patch+yaml");

  private final String contentType;

  PatchType(String contentType) {
    this.contentType = contentType;
  }

  /** The media type, without parameters. */
  public String contentType() {
    return contentType;
  }

  /**
   * The patch type of a {@code Content-Type} header value; parameters ({@code ;charset=utf-8}) and
   * case are ignored. Empty for a missing or unsupported type (the server answers 415).
   */
  public static Optional<PatchType> byContentType(String headerValue) {
    if (headerValue == null) {
      return Optional.empty();
    }
    int semi = headerValue.indexOf(';');
    String media = (semi < 0 ? headerValue : headerValue.substring(0, semi)).trim();
    media = media.toLowerCase(Locale.ROOT);
    for (PatchType t : values()) {
      if (t.contentType.equals(media)) {
        return Optional.of(t);
      }
    }
    return Optional.empty();
  }
}
