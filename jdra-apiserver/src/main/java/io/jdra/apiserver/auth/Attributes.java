package io.jdra.apiserver.auth;

import java.util.Map;
import java.util.Objects;

/**
 * What a request asks to do, as upstream's {@code authorizer.Attributes}: the user, the verb
 * ({@code get list watch create update patch delete deletecollection}) and, for a resource request,
 * where. Immutable.
 *
 * @param user who asks
 * @param verb the verb
 * @param resourceRequest whether it addresses a resource (else {@code path} is what is asked)
 * @param path the request path
 * @param namespace the namespace, or {@code ""}
 * @param apiGroup the API group, {@code ""} for core
 * @param apiVersion the API version
 * @param resource the plural resource name
 * @param subresource the subresource, or {@code ""}
 * @param name the object name, or {@code ""} (for a list or watch: the {@code metadata.name} of its
 *     field selector, as upstream's request info sets it)
 * @param fieldSelector the equality requirements of the request's field selector
 */
public record Attributes(
    UserInfo user,
    String verb,
    boolean resourceRequest,
    String path,
    String namespace,
    String apiGroup,
    String apiVersion,
    String resource,
    String subresource,
    String name,
    Map<String, String> fieldSelector) {
  public Attributes {
    Objects.requireNonNull(user, "user");
    Objects.requireNonNull(verb, "verb");
    fieldSelector = Map.copyOf(fieldSelector);
  }

  /** A resource request. */
  public static Attributes resource(
      UserInfo user,
      String verb,
      String namespace,
      String apiGroup,
      String resource,
      String subresource,
      String name) {
    return new Attributes(
        user, verb, true, "", namespace, apiGroup, "", resource, subresource, name, Map.of());
  }

  /** The same request with these field selector requirements. */
  public Attributes withFieldSelector(Map<String, String> requirements) {
    return new Attributes(
        user,
        verb,
        resourceRequest,
        path,
        namespace,
        apiGroup,
        apiVersion,
        resource,
        subresource,
        name,
        requirements);
  }

  /**
   * The message upstream's handler puts in front of the authorizers' reasons when it refuses, e.g.
   * {@code User "system:node:node-1" cannot create resource "resourceslices" in API group
   * "resource.k8s.io" at the cluster scope}.
   */
  public String forbiddenMessage() {
    String user = "\"" + this.user.name() + "\"";
    if (!resourceRequest) {
      return "User " + user + " cannot " + verb + " path \"" + path + "\"";
    }
    String r = subresource.isEmpty() ? resource : resource + "/" + subresource;
    String where =
        namespace.isEmpty() ? "at the cluster scope" : "in the namespace \"" + namespace + "\"";
    return "User "
        + user
        + " cannot "
        + verb
        + " resource \""
        + r
        + "\" in API group \""
        + apiGroup
        + "\" "
        + where;
  }
}
