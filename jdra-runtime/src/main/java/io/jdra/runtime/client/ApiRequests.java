package io.jdra.runtime.client;

import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.dsl.internal.OperationSupport;
import io.fabric8.kubernetes.client.http.HttpClient;
import io.fabric8.kubernetes.client.http.HttpRequest;
import io.fabric8.kubernetes.client.http.HttpResponse;
import io.fabric8.kubernetes.client.utils.KubernetesSerialization;
import java.io.ByteArrayInputStream;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;

/**
 * Single requests (GET, POST, PUT, PATCH, DELETE of a collection) for one resource type, sent
 * through a fabric8 client's own HTTP client, so they carry its authentication, interceptors
 * (jdra's QPS limiter among them), retries, request timeout and connection pool. For the hot paths
 * of controllers: the client's DSL spent more CPU per request than the controller did (a burst of
 * 5,000 pods in the ResourceClaim controller): the patch operation clones the object by writing and
 * reading it, and every request joins and parses its URL anew. Here the URL prefix is built once
 * per resource type, the body is written once with the client's serialization and the response read
 * with it.
 *
 * <p>Answers other than 2xx fail as the DSL fails: a {@link KubernetesClientException} made by
 * fabric8's own {@code OperationSupport.requestFailure} from the {@code Status} the API server sent
 * (or one fabric8 makes from the HTTP status when the body is none), so {@code getCode()}, {@code
 * getStatus()} (reason {@code AlreadyExists}, {@code Conflict}, {@code Invalid} with its causes)
 * and the message are the DSL's. {@link Resource#get} answers null for 404, as the DSL's {@code
 * get()} does. Transport failures (timeouts, refused connections) and interruption fail with a
 * {@code KubernetesClientException} whose cause is the failure; the code is then not an HTTP
 * status.
 *
 * <p>Immutable and thread-safe; one instance per client is enough.
 */
public final class ApiRequests {
  /** Content type of a create or update body. */
  static final String JSON = "application/json";

  private final HttpClient http;
  private final KubernetesSerialization serialization;
  private final String root;
  private final long timeoutMillis;

  /** Requests through this client's HTTP client, serialization, master URL and request timeout. */
  public ApiRequests(KubernetesClient client) {
    this.http = client.getHttpClient();
    this.serialization = client.getKubernetesSerialization();
    String master = client.getMasterUrl().toString();
    this.root = master.endsWith("/") ? master : master + "/";
    // As the DSL: the client enforces it (retries included); 0 means none.
    this.timeoutMillis = client.getConfiguration().getRequestTimeout();
  }

  /**
   * Requests for a resource type: {@code apiVersion} as in objects ({@code v1} for the core group,
   * {@code resource.k8s.io/v1}), {@code plural} the resource ({@code resourceclaims}), {@code type}
   * what answers are decoded into: a model class, a JSON tree ({@code JsonNode}), {@code String}
   * for the answer's JSON text as it came (not parsed), or {@code Void} for a caller that does not
   * read the answer (it is then not decoded; methods return null).
   */
  public <T> Resource<T> resource(String apiVersion, String plural, Class<T> type) {
    String groupVersion = (apiVersion.contains("/") ? "apis/" : "api/") + apiVersion + "/";
    return new Resource<>(root + groupVersion, "/" + plural, "", type);
  }

  /**
   * The requests of one resource type (or one of its subresources); URLs are this prefix plus the
   * namespace, the plural and the name. A null namespace addresses a cluster-scoped resource.
   */
  public final class Resource<T> {
    private final String groupVersionUrl;
    private final String pluralPath;
    private final String subresourcePath;
    private final Class<T> type;

    private Resource(
        String groupVersionUrl, String pluralPath, String subresourcePath, Class<T> type) {
      this.groupVersionUrl = groupVersionUrl;
      this.pluralPath = pluralPath;
      this.subresourcePath = subresourcePath;
      this.type = type;
    }

    /** The same resource's subresource, e.g. {@code status}: get, update and patch go there. */
    public Resource<T> subresource(String name) {
      return new Resource<>(groupVersionUrl, pluralPath, subresourcePath + "/" + name, type);
    }

    /** GET of one object; null when there is none (404). */
    public T get(String namespace, String name) {
      HttpRequest.Builder req = http.newHttpRequestBuilder().uri(itemUrl(namespace, name));
      return send(req, true);
    }

    /**
     * POST of a new object (name or generateName in its metadata); the created object. The object
     * is a model object, or a String holding its JSON (sent as is), as for every body here.
     */
    public T create(String namespace, Object object) {
      HttpRequest.Builder req =
          http.newHttpRequestBuilder().uri(collectionUrl(namespace)).post(JSON, json(object));
      return send(req, false);
    }

    /** PUT of an object (a conflict when its resourceVersion is not the current one). */
    public T update(String namespace, String name, Object object) {
      HttpRequest.Builder req =
          http.newHttpRequestBuilder().uri(itemUrl(namespace, name)).put(JSON, json(object));
      return send(req, false);
    }

    /** PATCH of an object with a body of the patch's type; the patched object. */
    public T patch(String namespace, String name, Patch patch, Object body) {
      String content = json(body);
      HttpRequest.Builder req =
          http.newHttpRequestBuilder()
              .uri(itemUrl(namespace, name) + patch.query())
              .method("PATCH", patch.contentType(), content);
      return send(req, false);
    }

    /**
     * DELETE of the namespace's whole collection (upstream's DeleteCollection) with these options,
     * a {@code DeleteOptions} or its JSON, sent as the body as the DSL sends them. The API server
     * answers with the list of what it deleted; with {@code Void} it is not decoded (client-go's
     * DeleteCollection never reads it), else it is decoded into {@code T} (a list type).
     */
    public T deleteCollection(String namespace, Object options) {
      HttpRequest.Builder req =
          http.newHttpRequestBuilder().uri(collectionUrl(namespace)).delete(JSON, json(options));
      return send(req, false);
    }

    /** A body: a String is JSON already (a patch, or an object written by the caller). */
    private String json(Object body) {
      return body instanceof String s ? s : serialization.asJson(body);
    }

    private String collectionUrl(String namespace) {
      return namespace == null
          ? groupVersionUrl + pluralPath.substring(1)
          : groupVersionUrl + "namespaces/" + segment(namespace) + pluralPath;
    }

    private String itemUrl(String namespace, String name) {
      return collectionUrl(namespace) + "/" + segment(name) + subresourcePath;
    }

    private T send(HttpRequest.Builder builder, boolean nullIfNotFound) {
      HttpRequest request = builder.timeout(timeoutMillis, TimeUnit.MILLISECONDS).build();
      HttpResponse<byte[]> response = await(request);
      if (!response.isSuccessful()) {
        if (nullIfNotFound && response.code() == 404) {
          return null;
        }
        throw OperationSupport.requestFailure(
            request, OperationSupport.createStatus(response, serialization));
      }
      if (type == Void.class) {
        return null;
      }
      if (type == String.class) {
        return type.cast(new String(response.body(), StandardCharsets.UTF_8));
      }
      try {
        return decode(response.body());
      } catch (KubernetesClientException e) {
        throw e;
      } catch (RuntimeException e) {
        throw OperationSupport.requestException(request, e);
      }
    }

    private T decode(byte[] body) {
      return serialization instanceof ClientSerialization ours
          ? ours.unmarshal(body, type)
          : serialization.unmarshal(new ByteArrayInputStream(body), type);
    }
  }

  /**
   * Waits for the answer in the calling thread, so that a failure carries the caller's stack (the
   * DSL copies the exception for the same reason).
   */
  private HttpResponse<byte[]> await(HttpRequest request) {
    try {
      return http.sendAsync(request, byte[].class).get();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw OperationSupport.requestException(request, e);
    } catch (ExecutionException e) {
      Throwable cause = e.getCause() != null ? e.getCause() : e;
      if (cause instanceof KubernetesClientException k) {
        throw k.copyAsCause();
      }
      throw new KubernetesClientException(
          "Error executing: "
              + request.method()
              + " at: "
              + request.uri()
              + ". Cause: "
              + cause.getMessage(),
          cause);
    }
  }

  /**
   * Names and namespaces are DNS labels and subdomains and need no encoding; anything else is
   * encoded as a path segment rather than trusted.
   */
  static String segment(String s) {
    for (int i = 0; i < s.length(); i++) {
      char c = s.charAt(i);
      if (!(c >= 'a' && c <= 'z' || c >= '0' && c <= '9' || c == '-' || c == '.')) {
        return URLEncoder.encode(s, StandardCharsets.UTF_8).replace("+", "%20");
      }
    }
    return s;
  }

  /**
   * The kind of a PATCH and its query parameters, built once: content type, and for server-side
   * apply the field manager and whether to force conflicts, in the order the DSL sends them.
   */
  public record Patch(String contentType, String query) {
    /** Server-side apply ({@code application/apply-patch+yaml}; JSON is YAML). */
    public static Patch serverSideApply(String fieldManager, boolean force) {
      return new Patch(
          "application/apply-patch+yaml",
          "?fieldManager=" + HttpRequest.formURLEncode(fieldManager) + "&force=" + force);
    }

    /** JSON merge patch (RFC 7386). */
    public static Patch merge() {
      return new Patch("application/merge-patch+json", "");
    }

    /** Strategic merge patch (built-in types only). */
    public static Patch strategicMerge() {
      return new Patch("application/strategic-merge-patch+json", "");
    }

    /** JSON patch (RFC 6902). */
    public static Patch json() {
      return new Patch("application/json-patch+json", "");
    }
  }
}
