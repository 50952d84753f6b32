package io.jdra.apiserver.auth;

/**
 * The relations between a node and the objects it may read or change, which upstream's node
 * authorizer keeps as a graph fed by informers. Implementations answer from the server's own
 * current state, so a relation exists as soon as the write that makes it is stored. Thread-safe.
 */
public interface NodeGraph {
  /** Whether the pod exists and is bound to the node. */
  boolean podOnNode(String node, String namespace, String pod);

  /**
   * Whether a pod bound to the node uses the claim: by name in {@code spec.resourceClaims}, or as
   * the claim generated for it ({@code status.resourceClaimStatuses}, {@code
   * status.extendedResourceClaimStatus}).
   */
  boolean claimUsedOnNode(String node, String namespace, String claim);

  /**
   * Whether a pod bound to the node references the Secret ({@code secret}) or ConfigMap (else) by
   * name: in a volume, a projected volume, an environment variable or {@code envFrom} of any
   * container, or (Secrets) {@code imagePullSecrets}.
   */
  boolean referencedOnNode(String node, String namespace, boolean secret, String name);

  /** Whether the ResourceSlice exists and its {@code spec.nodeName} is the node. */
  boolean sliceOfNode(String node, String slice);
}
