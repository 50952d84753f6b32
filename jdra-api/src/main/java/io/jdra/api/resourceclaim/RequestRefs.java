package io.jdra.api.resourceclaim;

import java.util.List;
import java.util.Optional;

/**
 * References to device requests as they appear in allocation results and configurations: {@code
 * request} for a top-level request, {@code request/subrequest} for a subrequest of a {@code
 * firstAvailable} list. Stateless and thread-safe.
 */
public final class RequestRefs {
  private RequestRefs() {}

  /**
   * The top-level request a reference belongs to: the text before the first {@code /} (the whole
   * reference when there is none), as upstream's BaseRequestRef.
   */
  public static String baseRequestRef(String requestRef) {
    int slash = requestRef.indexOf('/');
    return slash < 0 ? requestRef : requestRef.substring(0, slash);
  }

  /** The parent request of a subrequest reference; empty for a top-level reference. */
  public static Optional<String> parentRequestName(String requestRef) {
    return isSubRequestRef(requestRef) ? Optional.of(baseRequestRef(requestRef)) : Optional.empty();
  }

  /** The subrequest's own name in a subrequest reference; empty for a top-level reference. */
  public static Optional<String> subRequestName(String requestRef) {
    return isSubRequestRef(requestRef)
        ? Optional.of(requestRef.substring(requestRef.indexOf('/') + 1))
        : Optional.empty();
  }

  /** Whether the reference has exactly two {@code /}-separated parts, as upstream. */
  public static boolean isSubRequestRef(String requestRef) {
    int slash = requestRef.indexOf('/');
    return slash >= 0 && requestRef.indexOf('/', slash + 1) < 0;
  }

  /** {@code request/subrequest}. */
  public static String createSubRequestRef(String requestName, String subRequestName) {
    return requestName + "/" + subRequestName;
  }

  /**
   * Whether a configuration's request list applies to a request reference: an empty (or absent)
   * list applies to all; otherwise it must name the reference or its base request.
   */
  public static boolean matches(List<String> requests, String requestRef) {
    if (requests == null || requests.isEmpty()) {
      return true;
    }
    return requests.contains(requestRef) || requests.contains(baseRequestRef(requestRef));
  }
}
