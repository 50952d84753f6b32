package io.jdra.apiserver.meta;

import io.jdra.apiserver.registry.ResourceType;
import java.util.List;
import java.util.stream.Collectors;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * A request failure that becomes a Kubernetes {@code Status} with the same code, reason, message
 * and details as kube-apiserver's {@code k8s.io/apimachinery/pkg/api/errors}.
 */
public final class ApiException extends RuntimeException {
  private final int code;
  private final String reason;
  private final String name;
  private final String group;
  private final String kind;
  private final List<Cause> causes;
  private final Integer retryAfterSeconds;
  private final String listContinue;

  public ApiException(
      int code,
      String reason,
      String message,
      String name,
      String group,
      String kind,
      List<Cause> causes) {
    this(code, reason, message, name, group, kind, causes, null, null);
  }

  private ApiException(
      int code,
      String reason,
      String message,
      String name,
      String group,
      String kind,
      List<Cause> causes,
      Integer retryAfterSeconds,
      String listContinue) {
    super(message, null, false, false);
    this.code = code;
    this.reason = reason;
    this.name = name;
    this.group = group;
    this.kind = kind;
    this.causes = List.copyOf(causes);
    this.retryAfterSeconds = retryAfterSeconds;
    this.listContinue = listContinue;
  }

  /**
   * The same failure with {@code metadata.continue} set, as upstream's 410 for an expired continue
   * token offers a token to go on inconsistently.
   */
  public ApiException withContinue(String token) {
    return new ApiException(
        code, reason, getMessage(), name, group, kind, causes, retryAfterSeconds, token);
  }

  public int code() {
    return code;
  }

  public String reason() {
    return reason;
  }

  public List<Cause> causes() {
    return causes;
  }

  /** The Status object. */
  public ObjectNode toStatus() {
    ObjectNode s = Json.object();
    s.put("kind", "Status");
    s.put("apiVersion", "v1");
    ObjectNode meta = s.putObject("metadata");
    if (listContinue != null) {
      meta.put("continue", listContinue);
    }
    s.put("status", "Failure");
    s.put("message", getMessage());
    if (reason != null && !reason.isEmpty()) {
      s.put("reason", reason);
    }
    if (name != null
        || group != null
        || kind != null
        || !causes.isEmpty()
        || retryAfterSeconds != null) {
      ObjectNode d = s.putObject("details");
      if (name != null && !name.isEmpty()) {
        d.put("name", name);
      }
      if (group != null && !group.isEmpty()) {
        d.put("group", group);
      }
      if (kind != null && !kind.isEmpty()) {
        d.put("kind", kind);
      }
      if (!causes.isEmpty()) {
        ArrayNode a = d.putArray("causes");
        for (Cause c : causes) {
          ObjectNode o = a.addObject();
          o.put("reason", c.reason());
          o.put("message", c.message());
          if (c.field() != null) {
            o.put("field", c.field());
          }
        }
      }
      if (retryAfterSeconds != null) {
        d.put("retryAfterSeconds", retryAfterSeconds);
      }
    }
    s.put("code", code);
    return s;
  }

  // --- factories mirroring apimachinery's errors.NewXxx ---

  public static ApiException notFound(ResourceType t, String name) {
    return new ApiException(
        404,
        "NotFound",
        t.qualifiedResource() + " \"" + name + "\" not found",
        name,
        t.group(),
        t.plural(),
        List.of());
  }

  public static ApiException alreadyExists(ResourceType t, String name) {
    return new ApiException(
        409,
        "AlreadyExists",
        t.qualifiedResource() + " \"" + name + "\" already exists",
        name,
        t.group(),
        t.plural(),
        List.of());
  }

  public static ApiException conflict(ResourceType t, String name, String why) {
    return new ApiException(
        409,
        "Conflict",
        "Operation cannot be fulfilled on " + t.qualifiedResource() + " \"" + name + "\": " + why,
        name,
        t.group(),
        t.plural(),
        List.of());
  }

  /** The usual optimistic-concurrency conflict. */
  public static ApiException modified(ResourceType t, String name) {
    return conflict(
        t,
        name,
        "the object has been modified; please apply your changes to the latest version and try"
            + " again");
  }

  /** 422 Invalid, message as upstream's {@code errors.NewInvalid}. */
  public static ApiException invalid(ResourceType t, String name, List<Cause> causes) {
    String qualifiedKind = t.group().isEmpty() ? t.kind() : t.kind() + "." + t.group();
    String list;
    if (causes.size() == 1) {
      list = causes.get(0).toString();
    } else {
      list = causes.stream().map(Cause::toString).collect(Collectors.joining(", ", "[", "]"));
    }
    String message = qualifiedKind + " \"" + name + "\" is invalid: " + list;
    return new ApiException(422, "Invalid", message, name, t.group(), t.kind(), causes);
  }

  public static ApiException badRequest(String message) {
    return new ApiException(400, "BadRequest", message, null, null, null, List.of());
  }

  public static ApiException forbidden(ResourceType t, String name, String why) {
    String n = name == null ? "" : " \"" + name + "\"";
    return new ApiException(
        403,
        "Forbidden",
        t.qualifiedResource() + n + " is forbidden: " + why,
        name,
        t.group(),
        t.plural(),
        List.of());
  }

  /**
   * 403 for a request no authorizer allowed, as upstream's {@code NewForbidden}: {@code
   * resource.group "name" is forbidden: why}, or {@code forbidden: why} for a non-resource path.
   */
  public static ApiException forbidden(String group, String resource, String name, String why) {
    String qualified = group.isEmpty() ? resource : resource + "." + group;
    String message;
    if (resource.isEmpty()) {
      message = "forbidden: " + why;
    } else if (name == null || name.isEmpty()) {
      message = qualified + " is forbidden: " + why;
    } else {
      message = qualified + " \"" + name + "\" is forbidden: " + why;
    }
    return new ApiException(403, "Forbidden", message, name, group, resource, List.of());
  }

  public static ApiException methodNotAllowed(String verb, String what) {
    return new ApiException(
        405,
        "MethodNotAllowed",
        verb + " is not supported on resources of kind \"" + what + "\"",
        null,
        null,
        null,
        List.of());
  }

  /** The generic 404 for an unknown path, group, version or resource. */
  public static ApiException pathNotFound() {
    return new ApiException(
        404,
        "NotFound",
        "the server could not find the requested resource",
        "",
        null,
        null,
        List.of());
  }

  public static ApiException gone(String message) {
    return new ApiException(410, "Expired", message, null, null, null, List.of());
  }

  public static ApiException tooLarge(long limit) {
    return new ApiException(
        413,
        "RequestEntityTooLarge",
        "Request entity too large: limit is " + limit,
        null,
        null,
        null,
        List.of());
  }

  public static ApiException unsupportedMediaType(String contentType, List<String> accepted) {
    return new ApiException(
        415,
        "UnsupportedMediaType",
        "the body of the request was in an unknown format - accepted media types include: "
            + String.join(", ", accepted),
        null,
        null,
        null,
        List.of());
  }

  public static ApiException notAcceptable(List<String> accepted) {
    return new ApiException(
        406,
        "NotAcceptable",
        "only the following media types are accepted: " + String.join(", ", accepted),
        null,
        null,
        null,
        List.of());
  }

  public static ApiException unauthorized() {
    return new ApiException(401, "Unauthorized", "Unauthorized", null, null, null, List.of());
  }

  public static ApiException internal(String message) {
    return new ApiException(
        500, "InternalError", "Internal error occurred: " + message, null, null, null, List.of());
  }

  /**
   * Upstream's {@code storage.NewTooLargeResourceVersionError}: a read asked for a resourceVersion
   * the server has not reached within the wait.
   */
  public static ApiException tooLargeResourceVersion(long requested, long current, int retryAfter) {
    return new ApiException(
        504,
        "Timeout",
        "Timeout: Too large resource version: " + requested + ", current: " + current,
        null,
        null,
        null,
        List.of(new Cause("ResourceVersionTooLarge", "Too large resource version", null)),
        retryAfter,
        null);
  }

  public static ApiException timeout(String message, int retryAfter) {
    return new ApiException(504, "Timeout", message, null, null, null, List.of(), retryAfter, null);
  }
}
