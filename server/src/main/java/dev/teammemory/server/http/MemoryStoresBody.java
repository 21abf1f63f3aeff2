package dev.teammemory.server.http;

/**
 * A body the Memory Stores API ({@code /v1}) answers with: {@link JsonBodyWriter} writes it in one
 * piece, in the HTTP layer's JSON mapping.
 */
public interface MemoryStoresBody {}
