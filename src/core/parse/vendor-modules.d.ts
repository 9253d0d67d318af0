// Type declarations for the parts of untyped packages the parsers use.

declare module 'pdfjs-dist/legacy/build/pdf.worker.mjs' {
  /** The worker's message handler; set as `globalThis.pdfjsWorker` it lets pdf.js run in-thread in Node. */
  export const WorkerMessageHandler: unknown;
}

declare module 'mammoth' {
  interface MammothMessage {
    type: 'warning' | 'error';
    message: string;
    error?: unknown;
  }
  interface MammothResult {
    value: string;
    messages: MammothMessage[];
  }
  interface MammothImage {
    contentType: string;
    read(encoding?: string): Promise<unknown>;
  }
  interface MammothOptions {
    styleMap?: string | string[];
    includeDefaultStyleMap?: boolean;
    ignoreEmptyParagraphs?: boolean;
    convertImage?: unknown;
  }
  interface MammothInput {
    buffer?: Buffer;
    path?: string;
    arrayBuffer?: ArrayBuffer;
  }
  const mammoth: {
    convertToHtml(input: MammothInput, options?: MammothOptions): Promise<MammothResult>;
    extractRawText(input: MammothInput): Promise<MammothResult>;
    images: { imgElement(f: (image: MammothImage) => Promise<Record<string, string>>): unknown };
  };
  export default mammoth;
}
