/**
 * API server clients: {@link io.jdra.runtime.client.ClientOptions} ({@code --kubeconfig}, {@code
 * --kube-api-qps}, {@code --kube-api-burst}) and {@link io.jdra.runtime.client.Clients}.
 */
package io.jdra.runtime.client;
