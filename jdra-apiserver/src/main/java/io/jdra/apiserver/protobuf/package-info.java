/**
 * Reads Kubernetes protobuf request bodies ({@code application/vnd.kubernetes.protobuf}) into the
 * same JSON trees a JSON body gives, so that everything after body decoding is unchanged. Entry
 * point: {@link io.jdra.apiserver.protobuf.KubernetesProtobuf}.
 *
 * <p>Field numbers and value types of every served kind come from {@code proto.txt}, generated from
 * the Go API types (k8s.io/api, k8s.io/apimachinery) by the {@code generate-proto.py} script in the
 * test resources; regenerate it when upstream types change.
 */
package io.jdra.apiserver.protobuf;
