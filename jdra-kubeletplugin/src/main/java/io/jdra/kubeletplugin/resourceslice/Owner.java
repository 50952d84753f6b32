package io.jdra.kubeletplugin.resourceslice;

/**
 * The owner of the published slices (upstream resourceslice.Owner). For a Node ({@code v1}, {@code
 * Node}) slices also get {@code spec.nodeName}, and the UID may be left null: the controller reads
 * it from the Node.
 */
public record Owner(String apiVersion, String kind, String name, String uid) {
  public boolean isNode() {
    return "v1".equals(apiVersion) && "Node".equals(kind);
  }

  public Owner withUid(String newUid) {
    return new Owner(apiVersion, kind, name, newUid);
  }
}
