package io.jdra.apiserver.http;

import java.util.ArrayList;
import java.util.List;

/**
 * A resource request's path, parsed as kube-apiserver's RequestInfoFactory does: {@code
 * /api/v1/...} or {@code /apis/GROUP/VERSION/...}, then {@code
 * [namespaces/NS/]RESOURCE[/NAME[/SUB]]}.
 *
 * @param group API group ({@code ""} for core)
 * @param version API version
 * @param namespace namespace from the path, or {@code ""}
 * @param resource plural resource name, or {@code ""} for a group/version discovery request
 * @param name object name, or {@code ""} for a collection
 * @param subresource subresource, or {@code ""}
 */
record RequestInfo(
    String group,
    String version,
    String namespace,
    String resource,
    String name,
    String subresource) {

  /** Parses a path; null when it is not an API resource path. */
  static RequestInfo parse(String path) {
    List<String> p = segments(path);
    String group;
    String version;
    int i;
    if (p.size() >= 2 && p.get(0).equals("api")) {
      group = "";
      version = p.get(1);
      i = 2;
    } else if (p.size() >= 3 && p.get(0).equals("apis")) {
      group = p.get(1);
      version = p.get(2);
      i = 3;
    } else {
      return null;
    }
    List<String> rest = p.subList(i, p.size());
    if (rest.isEmpty()) {
      return new RequestInfo(group, version, "", "", "", "");
    }
    String ns = "";
    if (rest.get(0).equals("namespaces") && rest.size() >= 3) {
      ns = rest.get(1);
      rest = rest.subList(2, rest.size());
    } else if (rest.get(0).equals("namespaces") && rest.size() == 2) {
      return new RequestInfo(group, version, "", "namespaces", rest.get(1), "");
    }
    if (rest.size() > 3) {
      return null;
    }
    String resource = rest.get(0);
    String name = rest.size() > 1 ? rest.get(1) : "";
    String sub = rest.size() > 2 ? rest.get(2) : "";
    if (!ns.isEmpty() && resource.equals("status")
        || !ns.isEmpty() && resource.equals("finalize")) {
      // namespaces/NAME/status and namespaces/NAME/finalize address the namespace itself.
      if (rest.size() == 1) {
        return new RequestInfo(group, version, "", "namespaces", ns, resource);
      }
    }
    return new RequestInfo(group, version, ns, resource, name, sub);
  }

  /** The path's non-empty segments between slashes (every request: no regex, no stream). */
  static List<String> segments(String path) {
    List<String> out = new ArrayList<>(8);
    int start = 0;
    int n = path.length();
    while (start < n) {
      int end = path.indexOf('/', start);
      if (end < 0) {
        end = n;
      }
      if (end > start) {
        out.add(path.substring(start, end));
      }
      start = end + 1;
    }
    return out;
  }
}
