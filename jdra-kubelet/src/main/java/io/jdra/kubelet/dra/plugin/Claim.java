package io.jdra.kubelet.dra.plugin;

/**
 * A claim as the kubelet names it to a driver in NodePrepareResources and NodeUnprepareResources.
 */
public record Claim(String namespace, String uid, String name) {}
