import { describe, expect, it } from 'vitest';
import { RagError } from '../../../shared/errors.js';
import { resolveModelSpec } from '../model-spec.js';
import { knownRemotePrefixes } from './known-prefixes.js';
import { isRemoteModel, parseRemoteSpec } from './remote-spec.js';

function invalid(model: string): RagError {
  try {
    parseRemoteSpec(model);
  } catch (err) {
    expect(err).toBeInstanceOf(RagError);
    expect((err as RagError).code).toBe('invalid_parameter');
    return err as RagError;
  }
  throw new Error(`${model} parsed`);
}

describe('remote model strings', () => {
  it('recognises the providers and nothing else', () => {
    expect(isRemoteModel('ollama:nomic-embed-text')).toBe(true);
    expect(isRemoteModel(' openai:text-embedding-3-small')).toBe(true);
    expect(isRemoteModel('multilingual')).toBe(false);
    expect(isRemoteModel('Xenova/all-MiniLM-L6-v2')).toBe(false);
    expect(isRemoteModel('C:\\models\\e5')).toBe(false);
    expect(isRemoteModel('/models/ollama:x')).toBe(false);
  });

  it('parses ollama with the default host, a tag, and a host override', () => {
    const a = parseRemoteSpec('ollama:nomic-embed-text');
    expect(a).toMatchObject({
      provider: 'ollama',
      name: 'nomic-embed-text',
      baseUrl: 'http://127.0.0.1:11434',
      endpoint: 'http://127.0.0.1:11434/api/embed',
      resolved: 'ollama:nomic-embed-text@http://127.0.0.1:11434/api/embed',
      keyEnvExplicit: false,
      prefixes: { query: 'search_query: ', passage: 'search_document: ' },
    });
    expect(a.keyEnv).toBeUndefined();
    const b = parseRemoteSpec('ollama:nomic-embed-text:v1.5@http://gpu-box:11434/');
    expect(b).toMatchObject({
      name: 'nomic-embed-text:v1.5',
      endpoint: 'http://gpu-box:11434/api/embed',
      prefixes: { query: 'search_query: ' },
    });
    expect(parseRemoteSpec('ollama:bge-m3@http://h:1/api/embed').endpoint).toBe('http://h:1/api/embed');
    expect(parseRemoteSpec('ollama:hf.co/user/Some-GGUF:Q8_0').name).toBe('hf.co/user/Some-GGUF:Q8_0');
  });

  it('parses openai with the default base, a custom base, and options', () => {
    const a = parseRemoteSpec('openai:text-embedding-3-small');
    expect(a).toMatchObject({
      provider: 'openai',
      endpoint: 'https://api.openai.com/v1/embeddings',
      keyEnv: 'OPENAI_API_KEY',
      prefixes: { query: '', passage: '' },
    });
    const b = parseRemoteSpec(
      'openai:text-embedding-3-small@https://api.example.com/v1?key_env=EXAMPLE_KEY&dimensions=256&batch=10&timeout_ms=5000&retries=1',
    );
    expect(b).toMatchObject({
      endpoint: 'https://api.example.com/v1/embeddings',
      keyEnv: 'EXAMPLE_KEY',
      keyEnvExplicit: true,
      dimensions: 256,
      batchSize: 10,
      timeoutMs: 5000,
      retries: 1,
    });
    expect(parseRemoteSpec('openai:BAAI/bge-m3@http://127.0.0.1:8080/v1/embeddings').endpoint).toBe('http://127.0.0.1:8080/v1/embeddings');
  });

  it('lets the string override prefixes (form-encoded; empty means none)', () => {
    const s = parseRemoteSpec('ollama:my-model?query_prefix=Query%3A%20&passage_prefix=Doc:+');
    expect(s.prefixes).toEqual({ query: 'Query: ', passage: 'Doc: ' });
    expect(parseRemoteSpec('ollama:nomic-embed-text?query_prefix=&passage_prefix=').prefixes).toEqual({ query: '', passage: '' });
  });

  it('knows the prefixes of well-known models', () => {
    expect(knownRemotePrefixes('nomic-embed-text:latest')).toEqual({ query: 'search_query: ', passage: 'search_document: ' });
    expect(knownRemotePrefixes('mxbai-embed-large').query).toMatch(/^Represent this sentence/);
    expect(knownRemotePrefixes('snowflake-arctic-embed2')).toEqual({ query: 'query: ', passage: '' });
    expect(knownRemotePrefixes('jeffh/intfloat-multilingual-e5-large:f16')).toEqual({ query: 'query: ', passage: 'passage: ' });
    expect(knownRemotePrefixes('embeddinggemma')).toEqual({ query: 'task: search result | query: ', passage: 'title: none | text: ' });
    expect(knownRemotePrefixes('bge-m3')).toEqual({ query: '', passage: '' });
    expect(knownRemotePrefixes('text-embedding-3-large')).toEqual({ query: '', passage: '' });
  });

  it('rejects bad syntax with invalid_parameter', () => {
    invalid('ollama:');
    invalid('ollama:@http://h:1');
    invalid('ollama:bad name');
    invalid('ollama:x@');
    invalid('ollama:x@not a url');
    invalid('ollama:x@ftp://host');
    invalid('ollama:x@http://host#frag');
    invalid('openai:x?dimensions=abc');
    invalid('openai:x?dimensions=0');
    invalid('openai:x?batch=5000');
    invalid('openai:x?retries=1&retries=2');
    invalid('openai:x?key_env=not-a-name');
    expect(invalid('openai:x?colour=red').message).toMatch(/unknown option "colour"/);
  });

  it('refuses secrets in the string without echoing them', () => {
    const a = invalid('openai:x@https://user:sk-supersecretvalue123456@api.example.com/v1');
    expect(a.message).toMatch(/credentials in the URL/);
    expect(a.message).not.toContain('supersecret');
    const b = invalid('openai:x?api_key=sk-supersecretvalue123456');
    expect(b.message).toMatch(/environment variable/);
    expect(b.message).not.toContain('supersecret');
  });

  it('is not a transformers.js model', () => {
    expect(() => resolveModelSpec('ollama:nomic-embed-text', 'embedding')).toThrow(RagError);
    expect(() => resolveModelSpec('ollama:nomic-embed-text', 'rerank')).toThrow(/rerank models run locally/);
  });
});
