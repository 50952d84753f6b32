package io.jdra.controllers.controllerutil;

import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.dsl.base.ResourceDefinitionContext;
import io.fabric8.kubernetes.client.http.HttpClient;
import io.fabric8.kubernetes.client.http.HttpResponse;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * What the API server serves, by discovery, in each group's preferred version (client-go's {@code
 * ServerPreferredResources}); the garbage collector and the namespace controller act on every
 * resource, whatever its kind. Immutable.
 *
 * @param resources every top-level resource (no subresources), in discovery order
 * @param failedGroups group versions whose resource list could not be read, with the error; what
 *     was read is still used (upstream's {@code ErrGroupDiscoveryFailed})
 */
public record ApiResources(List<Gvr> resources, Map<String, String> failedGroups) {
  public ApiResources {
    resources = List.copyOf(resources);
    failedGroups = Map.copyOf(failedGroups);
  }

  /** A resource in one version, with its kind, scope and verbs. */
  public record Gvr(
      String group,
      String version,
      String resource,
      String kind,
      boolean namespaced,
      Set<String> verbs) {
    public Gvr {
      verbs = Set.copyOf(verbs);
    }

    public String apiVersion() {
      return group.isEmpty() ? version : group + "/" + version;
    }

    public boolean supports(String... wanted) {
      return verbs.containsAll(List.of(wanted));
    }

    public ResourceDefinitionContext context() {
      return new ResourceDefinitionContext.Builder()
          .withGroup(group)
          .withVersion(version)
          .withPlural(resource)
          .withKind(kind)
          .withNamespaced(namespaced)
          .build();
    }

    /** The URL path of the collection in {@code namespace} (ignored if cluster-scoped). */
    public String collectionPath(String namespace) {
      String prefix = group.isEmpty() ? "/api/" + version : "/apis/" + group + "/" + version;
      return namespaced
          ? prefix + "/namespaces/" + encode(namespace) + "/" + resource
          : prefix + "/" + resource;
    }

    public String objectPath(String namespace, String name) {
      return collectionPath(namespace) + "/" + encode(name);
    }

    /** {@code pods}, or {@code deployments.apps}, as upstream prints a group resource. */
    @Override
    public String toString() {
      return group.isEmpty() ? resource : resource + "." + group;
    }

    private static String encode(String s) {
      return URLEncoder.encode(s, StandardCharsets.UTF_8);
    }
  }

  /** Aggregated discovery (apidiscovery.k8s.io/v2): all groups in two requests, as client-go. */
  static final String AGGREGATED =
      "application/json;g=apidiscovery.k8s.io;v=v2;as=APIGroupDiscoveryList";

  private static final JsonMapper JSON = JsonMapper.builder().build();

  /**
   * Reads aggregated discovery from {@code /api} and {@code /apis}; the first version of each group
   * is its preferred one. A stale group version, or a root that cannot be read, is recorded in
   * {@code failedGroups}.
   */
  public static ApiResources discover(KubernetesClient client) {
    List<Gvr> out = new ArrayList<>();
    Map<String, String> failed = new LinkedHashMap<>();
    read(client, "/api", out, failed);
    read(client, "/apis", out, failed);
    return new ApiResources(out, failed);
  }

  private static void read(
      KubernetesClient client, String root, List<Gvr> out, Map<String, String> failed) {
    HttpClient http = client.getHttpClient();
    String url = client.getMasterUrl().toString().replaceAll("/+$", "") + root;
    JsonNode list;
    try {
      HttpResponse<String> r =
          http.sendAsync(
                  http.newHttpRequestBuilder().uri(url).header("Accept", AGGREGATED).build(),
                  String.class)
              .get(30, TimeUnit.SECONDS);
      if (r.code() != 200) {
        failed.put(root, "the server answered " + r.code());
        return;
      }
      list = JSON.readTree(r.body());
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      failed.put(root, "interrupted");
      return;
    } catch (ExecutionException | TimeoutException | RuntimeException e) {
      failed.put(root, String.valueOf(e.getMessage()));
      return;
    }
    for (JsonNode group : list.path("items")) {
      String name = group.path("metadata").path("name").asString("");
      JsonNode version = group.path("versions").path(0);
      String v = version.path("version").asString("");
      if ("Stale".equals(version.path("freshness").asString(""))) {
        failed.put(name.isEmpty() ? v : name + "/" + v, "stale GroupVersion discovery");
      }
      for (JsonNode r : version.path("resources")) {
        Set<String> verbs = new java.util.HashSet<>();
        r.path("verbs").forEach(x -> verbs.add(x.asString()));
        out.add(
            new Gvr(
                name,
                v,
                r.path("resource").asString(),
                r.path("responseKind").path("kind").asString(""),
                "Namespaced".equals(r.path("scope").asString()),
                verbs));
      }
    }
  }

  /**
   * Whether discovery failed for the resource's group version: the group version is stale, or its
   * root ({@code /api} for the core group, {@code /apis} for the others) could not be read.
   */
  public boolean failed(Gvr gvr) {
    return failedGroups.containsKey(gvr.apiVersion())
        || failedGroups.containsKey(gvr.group().isEmpty() ? "/api" : "/apis");
  }

  /** The resources that support all of {@code verbs}. */
  public List<Gvr> supporting(String... verbs) {
    return resources.stream().filter(r -> r.supports(verbs)).toList();
  }

  /** The resource of a kind in a group ({@code apiVersion} of an owner reference), if served. */
  public Optional<Gvr> forKind(String apiVersion, String kind) {
    String group = apiVersion.contains("/") ? apiVersion.substring(0, apiVersion.indexOf('/')) : "";
    return resources.stream()
        .filter(r -> r.group().equals(group) && r.kind().equals(kind))
        .findFirst();
  }
}
